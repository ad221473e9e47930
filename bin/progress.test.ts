import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressLine } from './progress.js';

/** A terminal 40 columns wide that keeps what is written to it. */
function terminal(): { stream: NodeJS.WriteStream; written: string[] } {
  const written: string[] = [];
  const stream = { isTTY: true, columns: 40, write: (s: string) => written.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe('the progress line', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is rewritten in place with an erase code on a terminal, cut to its width', () => {
    vi.stubEnv('TERM', 'xterm-256color');
    const { stream, written } = terminal();
    const line = progressLine(stream);
    line.update('x'.repeat(100));
    line.done();
    expect(written).toEqual([`\r\x1b[K${'x'.repeat(39)}`, '\r\x1b[K']);
  });

  it('on a terminal that knows no escape codes (TERM=dumb), blanks the old line with spaces instead', () => {
    vi.stubEnv('TERM', 'dumb');
    const { stream, written } = terminal();
    const line = progressLine(stream);
    line.update('12 pages');
    line.update('13 pages, ETA 2 s');
    line.done();
    expect(written.join('')).not.toContain('\x1b');
    expect(written).toEqual(['\r\r12 pages', `\r${' '.repeat(8)}\r13 pages, ETA 2 s`, `\r${' '.repeat(17)}\r`]);
  });

  it('relayed through a pipe (index run again with a larger heap), is cleared on the terminal stdout is too, before a summary', () => {
    vi.stubEnv('TERM', 'xterm-256color');
    const pipe: string[] = [];
    const stream = { isTTY: false, write: (s: string) => pipe.push(s) > 0 } as unknown as NodeJS.WriteStream;
    const stdout = terminal();
    const line = progressLine(stream, { columns: 20, stdout: stdout.stream });
    line.update('index: writing the generation');
    line.done();
    expect(pipe).toEqual([`\r\x1b[Kindex: writing the `, '\r\x1b[K']);
    expect(stdout.written).toEqual(['\r\x1b[K']);
    // Not relayed, and not a terminal: nothing at all.
    const silent: string[] = [];
    progressLine({ isTTY: false, write: (s: string) => silent.push(s) > 0 } as unknown as NodeJS.WriteStream, undefined).update('x');
    expect(silent).toEqual([]);
  });
});
