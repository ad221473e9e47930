import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMMANDS, EXIT, main } from './cli.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (err.push(String(s)), true));
  return { out: () => out.join(''), err: () => err.join('') };
}

describe('gleaner CLI', () => {
  afterEach(() => vi.restoreAllMocks());

  it('--help lists every command', async () => {
    const io = capture();
    expect(await main(['--help'])).toBe(EXIT.ok);
    for (const c of COMMANDS) expect(io.out()).toContain(c.name);
  });

  it.each(COMMANDS.map((c) => c.name))('`gleaner %s --help` prints its usage and exits 0', async (name) => {
    const io = capture();
    const argv = name === 'robots' ? ['robots', 'check', '--help'] : [name, '--help'];
    expect(await main(argv)).toBe(EXIT.ok);
    expect(io.out()).toMatch(/Usage:\s+gleaner/);
  });

  it('--version prints the version package.json gives', async () => {
    const io = capture();
    expect(await main(['--version'])).toBe(EXIT.ok);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(io.out()).toBe(`gleaner ${pkg.version}\n`);
  });

  it('`gleaner help crawl` prints the crawl help; help for no such command is a usage error', async () => {
    let io = capture();
    expect(await main(['help', 'crawl'])).toBe(EXIT.ok);
    expect(io.out()).toBe(COMMANDS.find((c) => c.name === 'crawl')!.help);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['help', 'frobnicate'])).toBe(EXIT.usage);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('no command or an unknown one is a usage error on one line', async () => {
    let io = capture();
    expect(await main([])).toBe(EXIT.usage);
    expect(io.err()).toContain('Usage');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['frobnicate'])).toBe(EXIT.usage);
    expect(io.err().trim().split('\n')).toEqual(['gleaner: unknown command "frobnicate" (see `gleaner --help`)']);
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['--data', 'x', 'crawl'])).toBe(EXIT.usage);
    expect(io.err()).toBe('gleaner: "--data" before a command: options go after it, as in gleaner COMMAND --data (see `gleaner --help`)\n');
  });

  it('bad input to a command is one line naming the command once, never a stack trace', async () => {
    const io = capture();
    expect(await main(['crawl', 'ftp://example.org/'])).toBe(EXIT.usage);
    expect(io.err()).toBe('gleaner crawl: not an http(s) URL: "ftp://example.org/"\n');
  });

  // A message may quote what a server sent: `gleaner extract` of a Word document whose zip names an entry
  // "\x1b]0;...\x07\x1b[2J" printed it raw, and the terminal retitled its window and cleared its screen.
  it('control characters in a one-line error are shown as escapes, never sent to the terminal', async () => {
    let io = capture();
    expect(await main(['crawl', 'http://\x1b]0;title\x07\x1b[2Jexample.org/'])).toBe(EXIT.usage);
    expect(io.err()).toBe('gleaner crawl: not an http(s) URL: "http://\\x1b]0;title\\x07\\x1b[2Jexample.org/"\n');
    vi.restoreAllMocks();
    io = capture();
    expect(await main(['\x1b[2J'])).toBe(EXIT.usage);
    expect(io.err()).toBe('gleaner: unknown command "\\x1b[2J" (see `gleaner --help`)\n');
  });

  it('a missing store is a failure with what to do', async () => {
    const io = capture();
    expect(await main(['index', '--data', '/nonexistent/gleaner-data'])).toBe(EXIT.failed);
    expect(io.err()).toMatch(/^gleaner index: .*gleaner crawl/);
    expect(io.err()).not.toMatch(/\n\s+at /);
  });
});
