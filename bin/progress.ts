// A progress line for long work: rewritten in place on a terminal, silent when output is a file or a
// pipe (a log full of carriage returns helps nobody).

export interface ProgressLine {
  update(text: string): void;
  done(): void;
}

export function progressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  if (!stream.isTTY) return { update: () => {}, done: () => {} };
  let shown = false;
  return {
    update(text) {
      const width = stream.columns ? stream.columns - 1 : 120;
      stream.write(`\r\x1b[K${text.slice(0, width)}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
