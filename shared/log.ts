// The crawler's log: JSON lines with a level, a message and fields, so a person can grep it and a
// program can read it. Where the lines go is the caller's choice (a file in the data dir by default).

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;
export type Logger = (level: LogLevel, msg: string, fields?: LogFields) => void;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger writing one JSON object per line to `write`, dropping lines below `minLevel`. */
export function jsonLinesLogger(write: (line: string) => void, minLevel: LogLevel, now: () => Date = () => new Date()): Logger {
  const min = RANK[minLevel];
  return (level, msg, fields = {}) => {
    if (RANK[level] < min) return;
    write(JSON.stringify({ time: now().toISOString(), level, msg, ...fields }) + '\n');
  };
}

export const silentLogger: Logger = () => {};

/** Sends each line to both loggers (e.g. the file, and warnings to the terminal). */
export function teeLogger(a: Logger, b: Logger): Logger {
  return (level, msg, fields) => {
    a(level, msg, fields);
    b(level, msg, fields);
  };
}
