// A progress line for long work: rewritten in place on a terminal, silent when output is a file or a
// pipe (a log full of carriage returns helps nobody).

import { TERMINAL_COLUMNS_ENV } from './heap.js';

export interface ProgressLine {
  update(text: string): void;
  done(): void;
}

/** A progress line written to a terminal through a pipe: `gleaner index` run again with a larger heap
 * (bin/heap.ts), whose stderr its parent passes on. */
export interface RelayedTerminal {
  /** The terminal's width, as the parent read it. */
  columns: number;
  /** This process's stdout when it is that terminal: the line is cleared there too (done). */
  stdout?: { write(s: string): unknown };
}

function relayedTerminal(stream: NodeJS.WriteStream): RelayedTerminal | undefined {
  const columns = stream === process.stderr ? Number(process.env[TERMINAL_COLUMNS_ENV] ?? 0) : 0;
  if (!(columns > 0)) return undefined;
  return process.stdout.isTTY ? { columns, stdout: process.stdout } : { columns };
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr, relayed = relayedTerminal(stream)): ProgressLine {
  if (!stream.isTTY && relayed === undefined) return { update: () => {}, done: () => {} };
  let shown = 0;
  // A terminal that knows no escape codes (TERM=dumb: Emacs' shell, some CI consoles) shows `ESC[K` as
  // junk: the old line is blanked with spaces instead.
  const dumb = process.env.TERM === 'dumb';
  const clear = () => (dumb ? `\r${' '.repeat(shown)}\r` : '\r\x1b[K');
  return {
    update(text) {
      const width = (stream.columns || relayed?.columns || 121) - 1;
      const line = text.slice(0, width);
      stream.write(`${clear()}${line}`);
      shown = line.length;
    },
    done() {
      if (shown > 0) {
        stream.write(clear());
        // Relayed, the clear reaches the terminal when the parent passes it on, which may be after the
        // summary this process then writes to stdout ("index: writingindexed 60 documents"): stdout
        // clears the line first. The relayed clear then meets the empty line after the summary.
        relayed?.stdout?.write(clear());
      }
      shown = 0;
    },
  };
}
