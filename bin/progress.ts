// A progress line for long work: rewritten in place on a terminal, silent when output is a file or a
// pipe (a log full of carriage returns helps nobody).

import { TERMINAL_COLUMNS_ENV } from './heap.js';

export interface ProgressLine {
  update(text: string): void;
  done(): void;
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  // A `gleaner index` run again with a larger heap (bin/heap.ts) writes to a terminal through a pipe.
  const relayed = stream === process.stderr ? Number(process.env[TERMINAL_COLUMNS_ENV] ?? 0) : 0;
  if (!stream.isTTY && !(relayed > 0)) return { update: () => {}, done: () => {} };
  let shown = 0;
  // A terminal that knows no escape codes (TERM=dumb: Emacs' shell, some CI consoles) shows `ESC[K` as
  // junk: the old line is blanked with spaces instead.
  const dumb = process.env.TERM === 'dumb';
  const clear = () => (dumb ? `\r${' '.repeat(shown)}\r` : '\r\x1b[K');
  return {
    update(text) {
      const width = (stream.columns || relayed || 121) - 1;
      const line = text.slice(0, width);
      stream.write(`${clear()}${line}`);
      shown = line.length;
    },
    done() {
      if (shown > 0) stream.write(clear());
      shown = 0;
    },
  };
}
