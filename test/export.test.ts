// `gleaner export`: the stored pages as JSON lines and as WARC 1.1, read back with a standard WARC reader
// (webrecorder's warcio) and compared with what the site served.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, symlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WARCParser } from 'warcio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT, runCli } from './support/run-cli.js';
import { tempDirs } from './support/temp-dirs.js';
import { fileSink } from '../bin/commands/export.js';

// Long enough that the body owns its buffer, which is then handed to the parse worker (not copied):
// what the crawl keeps for the WARC must not be those bytes.
const HOME = `<!doctype html><title>Home</title><meta name="DC.date" content="2023-11-02"><h1>Widgets</h1><p>All about widgets. <a href="/zipped">zipped</a> <a href="/moved">moved</a></p><p>${'Widget lore, page after page. '.repeat(3000)}</p>`;
const ZIPPED = '<!doctype html><title>Zipped</title><p>Sent gzip-encoded, stored decoded: gears and sprockets.</p>';
const dirs = tempDirs('gleaner-export-');

describe('gleaner export', () => {
  let site: { url: string; close: () => Promise<void> };
  let data: string;

  beforeAll(async () => {
    const server = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-served-by': 'test' }).end(HOME);
      if (req.url === '/zipped') return void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(gzipSync(ZIPPED));
      if (req.url === '/moved') return void res.writeHead(301, { location: '/' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    site = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise((r) => server.close(() => r())) };
    data = join(await dirs.make(), 'data');
    // The real CLI, with its parse worker: the body goes to the worker and must still be kept whole.
    if (BUILT) {
      const c = await runCli(['crawl', site.url, '--data', data, '--delay', '0', '--no-sitemaps', '--parse-threads', '1', '--keep-raw']);
      expect(c.code, c.stderr).toBe(0);
    }
  });
  afterAll(async () => {
    await site.close();
    await dirs.removeAll();
  });

  it.skipIf(!BUILT)('writes WARC 1.1 response records that a WARC reader reads back as the site sent them', async () => {
    const out = join(await dirs.make(), 'crawl.warc.gz');
    const r = await runCli(['export', '--format', 'warc', '--out', out, '--data', data]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('exported 3 pages as warc');
    const records = [];
    for await (const record of WARCParser.iterRecords([await readFile(out)])) {
      records.push({ type: record.warcType, uri: record.warcTargetURI, version: record.warcHeaders.protocol, status: record.httpHeaders?.statusCode, headers: record.httpHeaders?.headers, body: new TextDecoder().decode(await record.readFully()) });
    }
    expect(records[0]).toMatchObject({ type: 'warcinfo', version: 'WARC/1.1' });
    const byUri = new Map(records.slice(1).map((x) => [x.uri, x]));
    expect([...byUri.keys()].sort()).toEqual([site.url, `${site.url}moved`, `${site.url}zipped`]);
    const home = byUri.get(site.url)!;
    expect(home).toMatchObject({ type: 'response', status: 200, body: HOME });
    expect(home.headers?.get('x-served-by')).toBe('test');
    expect(home.headers?.get('content-type')).toBe('text/html; charset=utf-8');
    const zipped = byUri.get(`${site.url}zipped`)!;
    expect(zipped.body).toBe(ZIPPED);
    // The body is kept decoded, so the record says so: no Content-Encoding, the decoded length.
    expect(zipped.headers?.get('content-encoding')).toBeNull();
    expect(zipped.headers?.get('content-length')).toBe(String(Buffer.byteLength(ZIPPED)));
    expect(byUri.get(`${site.url}moved`)).toMatchObject({ status: 301, body: '' });
    expect(byUri.get(`${site.url}moved`)?.headers?.get('location')).toBe('/');
  });

  it.skipIf(!BUILT)('writes one JSON object per page; stdout without --out; a bad format is one line', async () => {
    const r = await runCli(['export', '--data', data]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    const home = lines.find((l) => l.url === site.url)!;
    expect(home).toMatchObject({ state: 'ok', status: 200, title: 'Home', date: '2023-11-02T00:00:00.000Z', headings: ['Widgets'], contentType: 'text/html' });
    expect(lines.find((l) => l.url === `${site.url}zipped`)).not.toHaveProperty('date');
    expect(home.links).toEqual(expect.arrayContaining([expect.objectContaining({ url: `${site.url}zipped`, text: 'zipped' })]));
    const bad = await runCli(['export', '--format', 'csv', '--data', data]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual(['gleaner export: --format must be jsonl or warc, not "csv"']);
  });

  it('writes a file larger than its buffer many times over without leaving a listener per full buffer', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const out = join(await dirs.make(), 'big.jsonl');
      const sink = fileSink(out);
      const chunk = `${'x'.repeat(100_000)}\n`;
      for (let i = 0; i < 40; i++) await sink.write(chunk);
      await sink.finish(true);
      expect((await readFile(out, 'utf8')).length).toBe(40 * chunk.length);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('writes through a symbolic link and into a pipe, never replacing them with a file', async () => {
    const dir = await dirs.make();
    // A link to a file: the file gets the export, the link stays a link.
    await writeFile(join(dir, 'real.jsonl'), 'keep me\n');
    symlinkSync('real.jsonl', join(dir, 'link.jsonl'));
    const viaLink = fileSink(join(dir, 'link.jsonl'));
    await viaLink.write('{"a":1}\n');
    await viaLink.finish(true);
    expect(lstatSync(join(dir, 'link.jsonl')).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'real.jsonl'), 'utf8')).toBe('{"a":1}\n');
    // A FIFO: its reader gets the export as it is written, and it stays a FIFO.
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const read = readFile(fifo, 'utf8');
    const intoPipe = fileSink(fifo);
    await intoPipe.write('{"b":2}\n');
    await intoPipe.finish(true);
    expect(await read).toBe('{"b":2}\n');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['link.jsonl', 'pipe', 'real.jsonl']);
    // A loop of links is one line, not an unexpected error.
    symlinkSync('loop2', join(dir, 'loop1'));
    symlinkSync('loop1', join(dir, 'loop2'));
    expect(() => fileSink(join(dir, 'loop1'))).toThrow(/^export: cannot write .*loop1: a loop of symbolic links$/);
  });

  it.skipIf(!BUILT)('refuses to write over what the data dir keeps, in one line, and every page still reads', async () => {
    // An export over a store's file had left every page unreadable, and said it exported them.
    const storeFile = readdirSync(join(data, 'store')).find((f) => f.endsWith('.ldb') || f.endsWith('.log'))!;
    const link = join(await dirs.make(), 'into-store');
    symlinkSync(join(data, 'store'), link);
    for (const [out, part] of [
      [join(data, 'store', storeFile), "lies in the data dir's store folder"],
      [join(data, 'store', 'CURRENT'), "lies in the data dir's store folder"],
      [join(link, 'pages.jsonl'), "lies in the data dir's store folder"],
      [join(data, 'crawl.log.jsonl'), "is the data dir's crawl.log.jsonl"],
    ]) {
      const r = await runCli(['export', '--data', data, '--out', out!]);
      expect(r.code, out).toBe(2);
      expect(r.stderr).toBe(`gleaner export: --out ${out} ${part} (${data}), which Gleaner keeps: write the export elsewhere\n`);
    }
    expect((await runCli(['export', '--data', data, '--out', ''])).stderr).toBe('gleaner export: --out needs a file name, e.g. --out pages.jsonl\n');
    const after = await runCli(['export', '--data', data]);
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout.trim().split('\n')).toHaveLength(3);
  });

  it.skipIf(!BUILT)('a file it cannot write is one line, exit 1, and no word of an export done', async () => {
    const out = join(await dirs.make(), 'no-such-dir', 'pages.jsonl');
    const r = await runCli(['export', '--data', data, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^gleaner export: cannot write .*pages\.jsonl: ENOENT/)]);
    // A directory as --out is named as the user gave it, before anything is read.
    const dir = await dirs.make();
    const d = await runCli(['export', '--data', data, '--out', dir]);
    expect(d.code).toBe(2);
    expect(d.stderr).toBe(`gleaner export: --out ${dir} is a directory; give a file name, e.g. ${join(dir, 'pages.jsonl')}\n`);
    expect(readdirSync(dirname(dir)).filter((f) => f.startsWith(`${basename(dir)}.tmp-`))).toEqual([]);
  });

  it.skipIf(!BUILT)('a page that got no answer is not blamed on a crawl without --keep-raw', async () => {
    const dropping = createServer((req, res) => {
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Up</title><a href="/dropped">d</a>');
      if (req.url === '/dropped') return void res.socket?.destroy();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}/`;
      const other = join(await dirs.make(), 'data');
      await writeFile(join(dirname(other), 'config.json'), JSON.stringify({ crawl: { maxRetries: 0 } }));
      const c = await runCli(['crawl', origin, '--data', other, '--delay', '0', '--no-sitemaps', '--keep-raw', '--config', join(dirname(other), 'config.json')]);
      expect(c.code, c.stderr).toBe(0);
      const r = await runCli(['export', '--format', 'warc', '--out', join(dirname(other), 'x.warc'), '--data', other]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('exported 1 pages as warc to ' + join(dirname(other), 'x.warc') + '; 1 pages had no response body to keep (no answer, an answer that broke HTTP, or a 304 with no earlier copy) and are not in it\n');
    } finally {
      await new Promise((resolve) => dropping.close(resolve));
    }
  });

  it.skipIf(!BUILT)('a crawl without --keep-raw keeps no responses, and the WARC export says how many it left out', async () => {
    const other = join(await dirs.make(), 'data');
    const c = await runCli(['crawl', site.url, '--data', other, '--delay', '0', '--no-sitemaps']);
    expect(c.code, c.stderr).toBe(0);
    const out = join(await dirs.make(), 'x.warc');
    const r = await runCli(['export', '--format', 'warc', '--out', out, '--data', other]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('exported 0 pages as warc');
    expect(r.stderr).toContain('3 pages had no kept response');
  });
});
