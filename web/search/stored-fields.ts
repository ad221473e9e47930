// A document's stored fields (title, headings, body, ...) read from the generation's stored.bin: the
// searcher's only I/O, for snippets (and Chinese or Japanese phrases: phrase-check.ts).
//
// Why synchronous: a read is one small range (the header and about a snippet's worth of body), most
// often from the block cache (stored-blocks.ts) and otherwise from a file the operating system keeps
// cached, so it costs microseconds, while `await` would cost an event-loop turn per read, and a phrase query may read up to maxPhraseChecks
// pages. It would also let two queries interleave on the one set of per-document accumulators
// (posting-loop.ts), which are reused by every query to spare a 100k-entry allocation each.

import { closeSync, openSync } from 'node:fs';
import type { StoredDoc } from '../../shared/index-format/index.js';
import { identifierTails, isIdentifierToken, scanTokens } from '../../shared/analysis/index.js';
import { headingsWith, joinHeadings, type JoinedHeadings } from './snippet.js';
import { headingAt, packedSectionColumns, sectionColumnsBytes, type SectionColumns } from './section-columns.js';
import { BlockCache, DEFAULT_BLOCK_CACHE_OPTIONS, type BlockCacheOptions } from './stored-blocks.js';
import { decodedOrDamaged, decodeStoredHeader, INDEX_FILES, StoredChunks, unpackSections, type IndexGeneration } from '../../shared/index-format/index.js';

/** Stored headers kept parsed (what snippets read of them), in MiB of memory: a popular long page
 * (hundreds of sections) is among the results of many queries, and parsing its header and tokenizing
 * its section headings cost more than the rest of its snippet. 64: the Rust docs' headers take about
 * 40 MiB parsed, and at 16 a stream of distinct queries parsed most of its results' headers anew
 * (DESIGN.md "stored.bin through a block cache"). */
export const DEFAULT_HEADER_CACHE_MIB = 64;

/** Memory a cached header takes beside its strings and columns (its object and its cache entry). */
const HEADER_OVERHEAD_BYTES = 120;

/** What a snippet needs of a stored record, which the record begins with: not its inbound anchor texts
 * and headings, stored after the body, which on the most linked pages (the ones ranking puts first)
 * are most of its bytes (Rust docs: 11 of 25 MB; at 105,935 pages a header of 1 MB took 8-14 ms to
 * read and parse when the snippet needed only its sections). The sections are the cached columns
 * themselves: made back into objects at each result, a rustdoc page's thousands of sections were
 * 80 of the 280 KB a page of results allocated. */
export interface SnippetHeader {
  readonly language: string;
  readonly context?: string;
  readonly sections?: SectionColumns;
}

interface CachedHeader {
  language: string;
  context?: string;
  /** The sections as columns (section-columns.ts): a few objects, however many sections. */
  sections?: SectionColumns;
  bytes: number;
  /** Every token of each section heading (as the tokenizer gives them), made when first asked. */
  headingTokens?: Set<string>[];
  /** Per query token asked, the headings holding it (snippet.ts headingsWith). */
  holding?: Map<string, Int32Array>;
}

/** The joined headings of a page without sections. */
const NO_HEADINGS: JoinedHeadings = joinHeadings([]);

/** Memory a kept list of headings takes beside its entries and token (a Map entry and a typed array). */
const HOLDING_OVERHEAD_BYTES = 160;

export class StoredFields {
  private fd: number | undefined;
  /** Parsed headers, least recently used first (a Map keeps insertion order). */
  private readonly headers = new Map<number, CachedHeader>();
  private headerBytes = 0;
  /** The header asked last, and its document. */
  private last: { doc: number; entry: CachedHeader } | undefined;
  private readonly blocks: BlockCache;
  private readonly headerCacheBytes: number;

  constructor(
    private readonly gen: IndexGeneration,
    blockCache: BlockCacheOptions = DEFAULT_BLOCK_CACHE_OPTIONS,
    headerCacheMiB = DEFAULT_HEADER_CACHE_MIB,
  ) {
    this.fd = openSync(gen.storedPath, 'r');
    this.blocks = new BlockCache(new StoredChunks(this.fd, gen.storedChunks), blockCache);
    this.headerCacheBytes = headerCacheMiB * 2 ** 20;
  }

  /** A document's stored text; with `maxBodyChars`, only about that much of the body is read. Bytes that
   * do not inflate or parse are INDEX_FORMAT (shared/index-format damage.ts), as in each read below. */
  read(doc: number, maxBodyChars = Infinity): StoredDoc {
    this.assertOpen();
    return decodedOrDamaged(() => this.readRecord(doc, maxBodyChars), INDEX_FILES.stored);
  }

  private readRecord(doc: number, maxBodyChars: number): StoredDoc {
    const { storedOffset, storedLength, storedHeaderLength, storedBodyLength } = this.gen.docs;
    const headerLength = storedHeaderLength[doc]!;
    const bodyEnd = headerLength + storedBodyLength[doc]!;
    // A character is at most 3 UTF-8 bytes in the BMP (4 outside it, counted as 2 UTF-16 units).
    const bodyTo = Math.min(bodyEnd, headerLength + maxBodyChars * 3);
    // The whole record in one read, or, with the body cut short, its first part and the rest apart.
    const whole = bodyTo === bodyEnd;
    const buf = this.blocks.bytes(storedOffset[doc]!, whole ? storedLength[doc]! : bodyTo);
    const rest = whole ? buf.subarray(bodyEnd) : this.blocks.bytes(storedOffset[doc]! + bodyEnd, storedLength[doc]! - bodyEnd);
    const { language, sections, context } = decodeStoredHeader(buf.subarray(0, headerLength));
    const others = JSON.parse(rest.toString('utf8')) as Omit<StoredDoc, 'body' | 'language' | 'sections' | 'context'>;
    const head = { language, ...(sections !== undefined ? { sections: unpackSections(sections) } : {}), ...(context !== undefined ? { context } : {}) };
    // A cut through a multi-byte character decodes to U+FFFD at the very end: harmless in a snippet.
    return { ...others, ...head, body: buf.toString('utf8', headerLength, bodyTo) };
  }

  /** A document's language, context and sections, as cached: read them, do not keep them. */
  header(doc: number): SnippetHeader {
    return this.cachedHeader(doc);
  }

  /** The title of the document's parent page (StoredDoc.context), if it names one. */
  context(doc: number): string | undefined {
    return this.cachedHeader(doc).context;
  }

  /** The tokens of each of the document's section headings, in its sections' order. */
  sectionHeadingTokens(doc: number): readonly ReadonlySet<string>[] {
    const entry = this.cachedHeader(doc);
    const { sections } = entry;
    entry.headingTokens ??= Array.from({ length: sections?.starts.length ?? 0 }, (_, i) => {
      const tokens = new Set<string>();
      scanTokens(headingAt(sections!, i), entry.language, (token, _word, _start, _end, _position, extra) => {
        tokens.add(token);
        // `ForeignKey.on_delete` names `on_delete` too (identifierTails).
        if (extra && isIdentifierToken(token)) for (const tail of identifierTails(token)) tokens.add(tail);
      });
      return tokens;
    });
    return entry.headingTokens;
  }

  /** The document's section headings joined in one text (snippet.ts joinHeadings). */
  joinedHeadings(doc: number): JoinedHeadings {
    return this.cachedHeader(doc).sections?.headings ?? NO_HEADINGS;
  }

  /** The document's section headings holding `token` (snippet.ts headingsWith), kept with its header:
   * a long reference page is among the results of many queries asking the same common words, and
   * searching its thousands of headings was a tenth of answering a query on the Rust docs. */
  headingsWith(doc: number, token: string): Int32Array {
    const entry = this.cachedHeader(doc);
    const holding = (entry.holding ??= new Map<string, Int32Array>());
    let found = holding.get(token);
    if (found === undefined) {
      found = headingsWith(this.joinedHeadings(doc), token, entry.language);
      holding.set(token, found);
      const bytes = HOLDING_OVERHEAD_BYTES + 2 * token.length + found.byteLength;
      entry.bytes += bytes;
      this.headerBytes += bytes;
    }
    return found;
  }

  private cachedHeader(doc: number): CachedHeader {
    // A result's snippet asks its header several times in a row: no reordering of the cache for those.
    if (this.last?.doc === doc && this.headers.get(doc) === this.last.entry) return this.last.entry;
    let entry = this.headers.get(doc);
    if (entry !== undefined) {
      this.last = { doc, entry };
      this.headers.delete(doc);
      this.headers.set(doc, entry);
      return entry;
    }
    this.assertOpen();
    const { storedOffset, storedHeaderLength } = this.gen.docs;
    const { language, sections, context } = decodedOrDamaged(() => decodeStoredHeader(this.blocks.bytes(storedOffset[doc]!, storedHeaderLength[doc]!)), INDEX_FILES.stored);
    const columns = sections !== undefined ? packedSectionColumns(sections) : undefined;
    const bytes = HEADER_OVERHEAD_BYTES + 2 * (language.length + (context?.length ?? 0)) + (columns !== undefined ? sectionColumnsBytes(columns) : 0);
    entry = { language, ...(columns !== undefined ? { sections: columns } : {}), ...(context !== undefined ? { context } : {}), bytes };
    this.headers.set(doc, entry);
    this.last = { doc, entry };
    this.headerBytes += bytes;
    for (const [old, e] of this.headers) {
      if (this.headerBytes <= this.headerCacheBytes || old === doc) break;
      this.headers.delete(old);
      this.headerBytes -= e.bytes;
    }
    return entry;
  }

  /** The body's UTF-8 bytes [fromByte, toByte) decoded (to its end when `toByte` is undefined or past it),
   * and whether they reach the end. Offsets from the word map fall between characters. */
  bodyPart(doc: number, fromByte: number, toByte?: number): { text: string; atEnd: boolean } {
    this.assertOpen();
    const { storedOffset, storedBodyLength, storedHeaderLength } = this.gen.docs;
    const bodyBytes = storedBodyLength[doc]!;
    const end = Math.min(bodyBytes, toByte ?? bodyBytes);
    const length = Math.max(0, end - fromByte);
    const buf = decodedOrDamaged(() => this.blocks.bytes(storedOffset[doc]! + storedHeaderLength[doc]! + fromByte, length), INDEX_FILES.stored);
    return { text: buf.toString('utf8'), atEnd: end === bodyBytes };
  }

  private assertOpen(): void {
    if (this.fd === undefined) throw new Error('search engine closed');
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
