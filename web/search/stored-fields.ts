// A document's stored fields (title, headings, body, ...) read from the generation's stored.bin: the
// searcher's only I/O, for snippets (and Chinese or Japanese phrases: phrase-check.ts).
//
// Why synchronous: a read is one small range (the header and about a snippet's worth of body) of a file
// the operating system keeps cached after the first queries, so readSync costs microseconds, while
// `await` would cost an event-loop turn per read, and a phrase query may read up to maxPhraseChecks
// pages. It would also let two queries interleave on the one set of per-document accumulators
// (posting-loop.ts), which are reused by every query to spare a 100k-entry allocation each.

import { closeSync, openSync, readSync } from 'node:fs';
import type { StoredDoc } from '../../shared/index-format/index.js';
import type { IndexGeneration } from '../../shared/index-format/index.js';

export class StoredFields {
  private fd: number | undefined;

  constructor(private readonly gen: IndexGeneration) {
    this.fd = openSync(gen.storedPath, 'r');
  }

  /** A document's stored text; with `maxBodyChars`, only about that much of the body is read. */
  read(doc: number, maxBodyChars = Infinity): StoredDoc {
    if (this.fd === undefined) throw new Error('search engine closed');
    const { storedOffset, storedLength, storedHeaderLength } = this.gen.docs;
    const headerLength = storedHeaderLength[doc]!;
    // A character is at most 3 UTF-8 bytes in the BMP (4 outside it, counted as 2 UTF-16 units).
    const length = Math.min(storedLength[doc]!, headerLength + maxBodyChars * 3);
    const buf = Buffer.allocUnsafe(length);
    readSync(this.fd, buf, 0, length, storedOffset[doc]!);
    const header = JSON.parse(buf.toString('utf8', 0, headerLength)) as Omit<StoredDoc, 'body'>;
    // A cut through a multi-byte character decodes to U+FFFD at the very end: harmless in a snippet.
    return { ...header, body: buf.toString('utf8', headerLength, length) };
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
