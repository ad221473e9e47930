// `gleaner export [--format jsonl|warc] [--out FILE]`: the stored pages in formats other tools read, so
// a crawl can move on. JSON lines: one page record per line. WARC 1.1 (ISO 28500, written with
// webrecorder's warcio): a warcinfo record, then one response record per page whose response the crawl
// kept (shared/store/raw-response.ts), readable by warcio, pywb and the other WARC tools.

import { createWriteStream, lstatSync, readlinkSync, realpathSync, statSync, type Stats, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { once } from 'node:events';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import { checkDataDir, dataDirPartAt } from '../../shared/data-dir.js';
import { GleanerError } from '../../shared/errors.js';
import { openStore, type PageRecord, type RawResponse, type Store } from '../../shared/store/index.js';
import { parseCommandArgs, rejectPositionals, type Command } from '../command.js';
import { progressLine } from '../progress.js';
import { GLEANER_VERSION } from '../../shared/agent.js';

const HELP = `Usage: gleaner export [--format jsonl|warc] [--out FILE] [--data DIR]

Writes the stored pages so a crawl can move to other tools.

Options:
  --format FORMAT  jsonl: one JSON object per page (url, finalUrl, state, status, fetchedAt,
                   contentType, language, title, description, date, headings, text,
                   links, ...);
                   warc: WARC 1.1 response records (the HTTP status line, headers and body as the
                   crawl received them, the body after its Content-Encoding was undone), one per page
                   whose response was kept (by a crawl with --keep-raw); a FILE ending
                   in .gz is compressed record by record, as .warc.gz files are (default: jsonl)
  --out FILE       write here (whole or not at all: a temporary file renamed at the end;
                   through a symbolic link to the file it names; a pipe or a device is
                   written to as it is); default: standard output
  --data DIR       data dir (default: data)
  -h, --help       this help
`;

const FLAGS = {
  format: { type: 'string' },
  out: { type: 'string' },
  data: { type: 'string' },
} as const;

/** The JSON-lines form of a page: the stored record without the crawler's bookkeeping. */
export function jsonlRecord(page: PageRecord): Record<string, unknown> {
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    state: page.state,
    status: page.status,
    fetchedAt: page.fetchedAt,
    contentType: page.contentType,
    language: page.language,
    title: page.title,
    description: page.description,
    ...(page.date !== undefined ? { date: page.date } : {}),
    headings: page.headings,
    text: page.text,
    links: page.links.map((l) => ({ url: l.url, text: l.text, rel: l.rel })),
    ...(page.canonical !== undefined ? { canonical: page.canonical } : {}),
    ...(page.etag !== undefined ? { etag: page.etag } : {}),
    ...(page.lastModified !== undefined ? { lastModified: page.lastModified } : {}),
    ...(page.duplicateOf !== undefined ? { duplicateOf: page.duplicateOf } : {}),
    ...(page.error !== undefined ? { error: page.error } : {}),
    robots: page.robots,
    depth: page.depth,
  };
}

// The body is stored decoded: the headers that described the encoded transfer would lie about it.
const TRANSFER_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/** A WARC response record for a page and the response it was made from. */
export function warcResponse(page: PageRecord, raw: RawResponse): WARCRecord {
  const body = raw.bodyGzip.byteLength === 0 ? new Uint8Array(0) : new Uint8Array(gunzipSync(raw.bodyGzip));
  const headers: [string, string][] = raw.headers.filter(([name]) => !TRANSFER_HEADERS.has(name));
  headers.push(['content-length', String(body.byteLength)]);
  return WARCRecord.create(
    {
      url: page.url,
      date: page.fetchedAt,
      type: 'response',
      warcVersion: 'WARC/1.1',
      statusline: `HTTP/1.1 ${raw.status} ${STATUS_CODES[raw.status] ?? ''}`.trimEnd(),
      httpHeaders: headers,
    },
    [body],
  );
}

interface Sink {
  write(chunk: string | Uint8Array): Promise<void>;
  /** Makes the output whole (renames the temporary file); `ok` false throws it away. */
  finish(ok: boolean): Promise<void>;
}

/** Resolves when `stream` drains or fails, leaving no listener behind: a race of two `once`s kept the
 * loser's listener, one per full buffer, and Node warned of a leak after ten. */
function drainedOrFailed(stream: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      resolve();
    };
    stream.once('drain', done);
    stream.once('error', done);
  });
}

/** Where `path` leads: a symlink is followed (its file is written, the link stays a link), and what is
 * no regular file (a FIFO, a device, /dev/stdout) is written to as it is. A temporary file renamed over
 * them had replaced the pipe, the link or the device itself with a regular file, and said it exported. */
function outTarget(path: string): { file: string; direct: boolean } {
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    throw new GleanerError('BAD_ARGUMENT', `export: cannot write ${path}: ${(e as NodeJS.ErrnoException).code === 'ELOOP' ? 'a loop of symbolic links' : (e as Error).message}`);
  }
  if (stat?.isDirectory()) throw new GleanerError('BAD_ARGUMENT', `export: --out ${path} is a directory; give a file name, e.g. ${join(path, 'pages.jsonl')}`);
  if (stat !== undefined && !stat.isFile()) return { file: path, direct: true };
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
    // A link to a file, or to one not made yet: the file it names is made whole beside itself.
    return { file: stat === undefined ? resolvePath(dirname(path), readlinkSync(path)) : realpathSync(path), direct: false };
  }
  return { file: path, direct: false };
}

export function fileSink(path: string): Sink {
  const { file, direct } = outTarget(path);
  const temp = direct ? file : `${file}.tmp-${process.pid}`;
  const stream: WriteStream = createWriteStream(temp);
  let failure: Error | undefined;
  stream.on('error', (e) => (failure = e));
  // The error names the file the user gave, not the temporary one beside it.
  const cannotWrite = (e: Error) => new GleanerError('DATA_DIR', `export: cannot write ${path}: ${e.message.replace(temp, path)}`);
  return {
    async write(chunk) {
      if (failure) throw cannotWrite(failure);
      if (!stream.write(chunk)) await drainedOrFailed(stream);
    },
    async finish(ok) {
      await new Promise<void>((resolve) => stream.end(resolve));
      if (direct) {
        // Written as it went (a pipe's reader has read it): nothing to make whole or take back.
      } else if (ok && !failure) {
        await rename(temp, file).catch(async (e: unknown) => {
          await rm(temp, { force: true });
          throw cannotWrite(e as Error);
        });
      } else {
        await rm(temp, { force: true });
      }
      if (failure) throw cannotWrite(failure);
    },
  };
}

function stdoutSink(): Sink {
  return {
    async write(chunk) {
      if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
    },
    finish: () => Promise.resolve(),
  };
}

export interface ExportSummary {
  pages: number;
  /** For warc: pages whose response was not kept (crawled without --keep-raw). */
  withoutResponse: number;
  /** For warc: pages that had no response body to keep (no answer, one that broke HTTP, a 304 with no
   * earlier copy). */
  noAnswer: number;
  /** For warc: pages robots.txt now disallows (state `blocked`), whose earlier response is withdrawn. */
  withdrawn: number;
}

export async function exportPages(store: Store, format: 'jsonl' | 'warc', sink: Sink, options: { gzip: boolean; onProgress?: (done: number) => void }): Promise<ExportSummary> {
  const summary: ExportSummary = { pages: 0, withoutResponse: 0, noAnswer: 0, withdrawn: 0 };
  const serialize = (record: WARCRecord) => WARCSerializer.serialize(record, { gzip: options.gzip });
  if (format === 'warc') {
    const info = WARCRecord.createWARCInfo({ warcVersion: 'WARC/1.1', filename: 'gleaner-export' }, { software: `Gleaner ${GLEANER_VERSION}`, format: 'WARC File Format 1.1' });
    await sink.write(await serialize(info));
  }
  for await (const page of store.pages()) {
    if (format === 'jsonl') {
      await sink.write(`${JSON.stringify(jsonlRecord(page))}\n`);
    } else {
      // A page robots.txt now disallows is withdrawn: the response kept from before is not exported.
      if (page.state === 'blocked') {
        summary.withdrawn++;
        continue;
      }
      const raw = await store.getRawResponse(page.url);
      if (raw === undefined) {
        // No answer, or a 304 with no earlier copy: there was no body to keep, --keep-raw or not.
        if (page.status === 0 || page.status === 304) summary.noAnswer++;
        else summary.withoutResponse++;
        continue;
      }
      await sink.write(await serialize(warcResponse(page, raw)));
    }
    summary.pages++;
    if (summary.pages % 200 === 0) options.onProgress?.(summary.pages);
  }
  return summary;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'write the stored pages as JSON lines or WARC 1.1, for other tools',
  help: HELP,
  async run(argv) {
    const { values: v, positionals, help } = parseCommandArgs('export', argv, FLAGS);
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    rejectPositionals('export', positionals);
    const format = v.format ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'warc') throw new GleanerError('BAD_ARGUMENT', `export: --format must be jsonl or warc, not "${format}"`);
    const dataDir = v.data ?? 'data';
    checkDataDir(dataDir, { create: false, write: false });
    if (v.out === '') throw new GleanerError('BAD_ARGUMENT', 'export: --out needs a file name, e.g. --out pages.jsonl');
    const part = v.out === undefined ? undefined : dataDirPartAt(v.out, dataDir);
    if (part !== undefined) throw new GleanerError('BAD_ARGUMENT', `export: --out ${v.out} ${part} (${dataDir}), which Gleaner keeps: write the export elsewhere`);
    const sink = v.out === undefined ? stdoutSink() : fileSink(v.out);
    const store = await openStore(dataDir, { mustExist: true }).catch(async (e: unknown) => {
      await sink.finish(false).catch(() => undefined);
      throw e;
    });
    const progress = progressLine();
    let finished = false;
    try {
      let total = 0;
      for await (const _ of store.pageFacts()) total++;
      const summary = await exportPages(store, format, sink, { gzip: format === 'warc' && (v.out?.endsWith('.gz') ?? false), onProgress: (done) => progress.update(`export: ${done} of ${total} pages`) });
      progress.done();
      // The file is in place (or the write's failure thrown) before anything says it was exported.
      finished = true;
      await sink.finish(true);
      const skipped =
        (summary.withoutResponse > 0 ? `; ${summary.withoutResponse} pages had no kept response (crawled without --keep-raw) and are not in it` : '') +
        (summary.noAnswer > 0 ? `; ${summary.noAnswer} pages had no response body to keep (no answer, an answer that broke HTTP, or a 304 with no earlier copy) and are not in it` : '') +
        (summary.withdrawn > 0 ? `; ${summary.withdrawn} pages robots.txt now disallows are not in it` : '');
      process.stderr.write(`exported ${summary.pages} pages as ${format}${v.out === undefined ? '' : ` to ${v.out}`}${skipped}\n`);
      return 0;
    } finally {
      progress.done();
      // An export that failed leaves no file: its own error is the one to show.
      if (!finished) await sink.finish(false).catch(() => undefined);
      await store.close();
    }
  },
};
