import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isGleanerError } from '../../shared/errors.js';
import { createApp, listen } from '../../web/index.js';
import type { SearchEngine } from '../../web/search/index.js';
import { isLoopback, serveCommand, SERVE_DEFAULTS } from './serve.js';

afterEach(() => vi.restoreAllMocks());

describe('gleaner serve', () => {
  it('--help prints the usage with the defaults and exits 0', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    expect(await serveCommand.run(['--help'])).toBe(0);
    expect(out.join('')).toContain('Usage: gleaner serve');
    expect(out.join('')).toContain(`(default: ${SERVE_DEFAULTS.port})`);
  });

  it('bad flags, ports and arguments are one-line BAD_ARGUMENT errors', async () => {
    for (const argv of [['--port', '70000'], ['--port', 'x'], ['--nope'], ['extra'], ['--host', ' '], ['--workers', '0'], ['--workers', '1.5'], ['--workers', 'many'], ['--workers', '65'], ['--synonyms', '/nonexistent/synonyms.txt'], ['--synonyms', '/'], ['--promoted', '/nonexistent/elevate.xml'], ['--promoted', '/']]) {
      const e = await serveCommand.run(argv).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isGleanerError(e) && e.code === 'BAD_ARGUMENT', argv.join(' ')).toBe(true);
      expect((e as Error).message).not.toContain('\n');
    }
  });

  it('a data dir without an index says to run gleaner index', async () => {
    const e = await serveCommand.run(['--data', '/nonexistent/gleaner-data', '--port', '0']).catch((err: unknown) => err);
    expect(isGleanerError(e) && e.code === 'NOT_FOUND').toBe(true);
    expect((e as Error).message).toMatch(/gleaner index/);
  });

  it('only loopback addresses count as loopback (where /robots may fetch by default)', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.5', 'example.com']) expect(isLoopback(h), h).toBe(false);
  });

  it('a port in use is a clear error, not a crash', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const engine: SearchEngine = {
      search: () => ({ total: 0, hits: [], tookMs: 0 }),
      suggest: () => [],
      summary: () => ({ formatVersion: 1, builtAt: '', documents: 0, terms: 0, bytesOnDisk: 0 }),
    };
    try {
      const e = await listen(createApp({ engine }), '127.0.0.1', port).catch((err: unknown) => err);
      expect(isGleanerError(e) && e.code === 'BAD_ARGUMENT').toBe(true);
      expect((e as Error).message).toBe(`port ${port} on 127.0.0.1 is in use: choose another with --port`);
    } finally {
      blocker.close();
    }
  });
});
