// Builds an index generation from documents whose links are already counted: analyses each document
// (or, incrementally, reuses the previous generation's postings for a document whose fingerprint did
// not change), lays out the postings and writes the generation atomically.

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import {
  FIELD_COUNT,
  INDEX_FORMAT_VERSION,
  encodeStoredHeader,
  type AllPositions,
  type DocColumns,
  type IndexStats,
  type LinkedPage,
  type StoredDoc,
  readCurrentGeneration,
  readFingerprints,
  damagedIndexError,
  INDEX_FILES,
  type IndexGeneration,
  isPhrasePairToken,
  StoredChunks,
} from '../shared/index-format/index.js';
import { isGleanerError } from '../shared/errors.js';
import type { CrawlStats } from '../shared/store/index.js';
import { BATCHES_PER_WORKER, createDocAnalyzer, type DocAnalyzer, type PooledAnalysis } from './analyze-pool.js';
import type { IndexerOptions } from './options.js';
import { encodePositionsOnThread } from './encode-thread.js';
import { PostingsBuilder } from './postings.js';
import { startTypeahead } from './typeahead-thread.js';
import { directorySize, startGeneration, type GenerationDraft } from './write-index.js';

/** Documents handed to an analysis thread at a time: enough that a message's fixed cost is small beside
 * its work, few enough that the threads are all busy soon after the build starts. */
const ANALYZE_BATCH_DOCS = 64;

/** A document ready to index: its text and its link figures. */
export interface IndexDocument {
  /** What is indexed; its title may lack the site's boilerplate (indexer/title-boilerplate.ts). */
  stored: StoredDoc;
  /** The title shown in results; `stored.title` when absent. */
  title?: string;
  host: string;
  inbound: number;
  inboundHosts: number;
  /** Distinct pages linking here from their content, not their template; absent when templates are not known. */
  contentInbound?: number;
  /** Share of the page's text that names or repeats other pages (indexer/hub.ts); 0 when absent. */
  hub?: number;
  /** How much the page is a source listing (indexer/listing.ts); 0 when absent. */
  listing?: number;
  /** The page's date (indexer/page-date.ts), milliseconds since the epoch; absent when it has none. */
  date?: number;
}

export interface BuildExtras {
  crawl?: CrawlStats;
  skipped: Record<string, number>;
}

export interface IndexBuildSummary {
  /** Where the new generation is. */
  indexDir: string;
  documents: number;
  terms: number;
  postings: number;
  bytesOnDisk: number;
  seconds: number;
  /** Whether the previous generation was ignored (`--full`, none, or an unreadable one). */
  full: boolean;
  /** Documents analysed because they are new or changed, reused unchanged, and dropped since last time. */
  analysed: number;
  reused: number;
  removed: number;
  skipped: Record<string, number>;
}

/** What the document's analysis depends on, hashed: the body on its own, after the rest as JSON (which
 * escapes every control character, so the NUL between them cannot come from either). Hashing the
 * whole document as one JSON string copied each body once more in the build thread's heap (342 MB
 * over the Rust docs), whose collections are most of a large build's time. */
export function fingerprintOf(doc: StoredDoc): string {
  const { body, ...rest } = doc;
  return createHash('sha1').update(JSON.stringify(rest)).update('\0').update(body).digest('base64url');
}

/** The previous generation and its fingerprints when an incremental build can use it; undefined means build from scratch. */
async function previousGeneration(dataDir: string, full: boolean): Promise<{ gen: IndexGeneration; fingerprints: string[] } | undefined> {
  if (full) return undefined;
  let gen: IndexGeneration;
  try {
    // Each term is read once: nothing to keep in a cache.
    gen = await readCurrentGeneration(dataDir, { cacheMiB: 0 });
  } catch (e) {
    // No index yet, or one in another format: a full build replaces it.
    if (isGleanerError(e) && (e.code === 'NOT_FOUND' || e.code === 'INDEX_FORMAT')) return undefined;
    throw e;
  }
  try {
    const fingerprints = await readFingerprints(gen.dir);
    if (!Array.isArray(fingerprints) || fingerprints.length !== gen.docs.url.length) throw damagedIndexError(gen.dir, INDEX_FILES.fingerprints, `not ${gen.docs.url.length} documents`);
    return { gen, fingerprints };
  } catch (e) {
    gen.lists.close();
    // A damaged generation is replaced by a full build, as one of another format is.
    if (isGleanerError(e) && e.code === 'INDEX_FORMAT') return undefined;
    throw e;
  }
}

/** Documents made one at a time (indexer/read-store.ts makes them on its second read of the store):
 * the build holds each one's text only until its record is written. */
export interface DocumentSource {
  /** How many documents it gives at most. */
  count: number;
  documents: AsyncIterable<IndexDocument> | Iterable<IndexDocument>;
}

/** Builds a generation from `documents` (an array, or documents made as the build goes) and makes it live. */
export async function buildFromDocuments(
  dataDir: string,
  documents: readonly IndexDocument[] | DocumentSource,
  extras: BuildExtras,
  options: IndexerOptions,
  startedAt = performance.now(),
): Promise<IndexBuildSummary> {
  const progress = options.onProgress ?? (() => {});
  const before = await previousGeneration(dataDir, options.full);
  const source = 'count' in documents ? documents : { count: documents.length, documents };
  try {
    const draft = await startGeneration(dataDir, options.storedChunkBytes);
    try {
      return await build(draft, source, extras, options, startedAt, progress, before);
    } catch (e) {
      await draft.abandon();
      throw e;
    }
  } finally {
    before?.gen.lists.close();
  }
}

/**
 * The build, as the documents come: each new or changed document is analysed in a batch (on the
 * analysis threads, a few batches ahead of the one whose postings are being added), its record
 * written to stored.bin and its text let go; a document unchanged since the previous generation (same
 * fingerprint) is put aside without its text, and after the last new one its postings are copied from
 * the previous generation and its record from the previous stored.bin. New documents come first and
 * keep the source's order, unchanged ones follow in their previous order: every term's postings are
 * added in ascending document order either way.
 */
async function build(
  draft: GenerationDraft,
  source: DocumentSource,
  extras: BuildExtras,
  options: IndexerOptions,
  startedAt: number,
  progress: NonNullable<IndexerOptions['onProgress']>,
  before: { gen: IndexGeneration; fingerprints: string[] } | undefined,
): Promise<IndexBuildSummary> {
  const previous = before?.gen;
  const oldByUrl = new Map<string, number>();
  if (previous) for (const [i, url] of [...previous.docs.url].entries()) oldByUrl.set(url, i);
  const maxSections = options.typeahead.maxSections;

  const builder = new PostingsBuilder(source.count);
  const fieldLength: number[] = [];
  const wordMaps: ArrayLike<number>[] = [];
  const storedColumns = newStoredColumns(source.count);
  const stored = storedRecords(storedColumns);
  // The documents in their new order, each once its record is written, and their fingerprints.
  const fresh: IndexDocument[] = [];
  const freshFingerprints: string[] = [];
  const reuse: { doc: IndexDocument; old: number; fingerprint: string }[] = [];

  // Documents analysed or found unchanged, of all the source gives.
  let done = 0;
  const report = (): void => progress({ phase: 'analyze', done, total: source.count });
  report();
  let analyzer: DocAnalyzer | undefined;
  const pending: { docs: IndexDocument[]; fingerprints: string[]; analysed: Promise<PooledAnalysis[]> }[] = [];
  // A document's term ids, in the order of its analysis (reused: most documents fit).
  let termIds = new Int32Array(1024);
  // Adds the oldest batch's postings, in document order, and writes its records.
  const take = async (): Promise<void> => {
    const { docs, fingerprints, analysed } = pending.shift()!;
    const batch = await analysed;
    const first = fresh.length;
    batch.forEach((a, j) => {
      // A worker's analysis has its terms and words by number (term-wire.ts), this thread's as strings.
      const n = 'numbered' in a ? a.numbered.numbers.length : a.terms.length;
      if (termIds.length < n) termIds = new Int32Array(2 * n);
      // Forms are sparse: forEach skips the terms without other forms.
      if ('numbered' in a) {
        const numbered = a.numbered;
        for (let s = 0; s < n; s++) termIds[s] = builder.numberedTermId(numbered, s);
        numbered.forms.forEach((_, s) => builder.addNumberedForms(termIds[s]!, numbered, s));
      } else {
        for (let s = 0; s < n; s++) termIds[s] = builder.termId(a.terms[s]!, a.words[s]!);
        a.forms.forEach((forms, s) => builder.addForms(termIds[s]!, forms));
      }
      builder.addDocument(termIds.subarray(0, n), first + j, a.tfs, a.positions, a.positionEnds);
      for (let f = 0; f < FIELD_COUNT; f++) fieldLength.push(a.fieldLength[f]!);
      wordMaps.push(a.wordMap);
    });
    await draft.appendStored(stored.records(docs.map((d) => d.stored), first));
    for (let j = 0; j < docs.length; j++) {
      fresh.push(withoutText(docs[j]!, maxSections));
      freshFingerprints.push(fingerprints[j]!);
    }
    const reported = Math.floor(done / 500);
    done += docs.length;
    if (Math.floor(done / 500) > reported) report();
  };
  // A batch or less of new documents in all (an incremental build after a small recrawl) is analysed
  // here: starting threads would cost more than it saves. A batch is sent once a document more comes.
  let batch: IndexDocument[] = [];
  let batchFingerprints: string[] = [];
  const send = async (last: boolean): Promise<void> => {
    analyzer ??= createDocAnalyzer(last && pending.length === 0 && fresh.length === 0 ? 0 : options.analyzeThreads);
    const analysed = analyzer.analyze(batch.map((d) => d.stored));
    // Awaited in turn; a batch that fails before its turn, or after an earlier one failed, is not an
    // unhandled rejection.
    analysed.catch(() => {});
    pending.push({ docs: batch, fingerprints: batchFingerprints, analysed });
    batch = [];
    batchFingerprints = [];
    // Every thread holds its batches and one more waits here for each, so a thread that answers is
    // sent another while this thread adds the postings of the batch before.
    while (pending.length >= Math.max(1, (BATCHES_PER_WORKER + 1) * analyzer.threads)) await take();
  };
  try {
    for await (const doc of source.documents) {
      const fingerprint = fingerprintOf(doc.stored);
      const old = oldByUrl.get(doc.stored.url);
      if (before && old !== undefined && before.fingerprints[old] === fingerprint) {
        reuse.push({ doc: withoutText(doc, maxSections), old, fingerprint });
        if (++done % 500 === 0) report();
      } else {
        if (batch.length === ANALYZE_BATCH_DOCS) await send(false);
        batch.push(doc);
        batchFingerprints.push(fingerprint);
      }
    }
    if (batch.length > 0) await send(true);
    while (pending.length > 0) await take();
  } finally {
    await analyzer?.close();
  }
  report();

  reuse.sort((a, b) => a.old - b.old);
  if (previous && reuse.length > 0) {
    copyPostings(previous, reuse, fresh.length, builder, fieldLength);
    for (const r of reuse) wordMaps.push(previous.wordMap.subarray(previous.wordMapOffsets[r.old], previous.wordMapOffsets[r.old + 1]));
    await copyRecords(previous, reuse, fresh.length, stored, draft);
  }
  const order = [...fresh, ...reuse.map((r) => r.doc)];
  const fingerprints = [...freshFingerprints, ...reuse.map((r) => r.fingerprint)];
  // Built on another core while the postings are laid out and written (typeahead-thread.ts); past the
  // entries it holds, the pages most linked from others' content keep theirs (docColumns' figures).
  const typeahead = startTypeahead({
    docs: order.map(({ stored }) => ({ title: stored.title, ...(stored.sections ? { sections: stored.sections } : {}) })),
    inbound: Uint32Array.from(order, (d) => d.contentInbound ?? d.inbound),
    options: options.typeahead,
  });
  // Awaited at the commit; a failure before then is not an unhandled rejection.
  typeahead.catch(() => {});
  const { bodyFrequency, postingsWithBody } = builder.bodyFrequencies(order.length);
  // After the body frequencies, which the pairs' are no part of.
  const phrasePairMinDocs = builder.addPhrasePairs(order.length, options.phrasePairMinDocs, options.phrasePairWords);
  const layout = await builder.finish(builder.records >= options.encodeThreadMinRecords ? encodePositionsOnThread : undefined);

  progress({ phase: 'write', done: 0, total: 1 });
  const docs = docColumns(order, fieldLength, bodyFrequency, trimmed(storedColumns, order.length));
  const avgFieldLength = new Array<number>(FIELD_COUNT).fill(0);
  for (let k = 0; k < order.length; k++) for (let f = 0; f < FIELD_COUNT; f++) avgFieldLength[f]! += fieldLength[k * FIELD_COUNT + f]!;
  for (let f = 0; f < FIELD_COUNT; f++) avgFieldLength[f] = order.length === 0 ? 0 : avgFieldLength[f]! / order.length;
  const builtAt = new Date().toISOString();
  const stats: Omit<IndexStats, 'bytesOnDisk'> = {
    builtAt,
    documents: order.length,
    terms: layout.terms.length,
    crawl: extras.crawl,
    topLinked: topLinked(docs, options.topLinkedCount),
    skipped: extras.skipped,
  };
  const { dir } = await draft.commit({
    manifest: {
      formatVersion: INDEX_FORMAT_VERSION,
      builtAt,
      documents: order.length,
      terms: layout.terms.length,
      postings: layout.offsets[layout.terms.length]!,
      avgFieldLength,
      postingsWithBody,
      phrasePairMinDocs,
    },
    docs,
    fingerprints,
    terms: { terms: layout.terms, words: layout.words, forms: layout.forms },
    offsets: layout.offsets,
    lists: layout.lists,
    ...concatenated(wordMaps),
    typeahead: await typeahead,
    stats,
  });
  progress({ phase: 'write', done: 1, total: 1 });
  const kept = new Set(order.map((d) => d.stored.url));
  return {
    indexDir: dir,
    documents: order.length,
    terms: layout.terms.length,
    postings: layout.offsets[layout.terms.length]!,
    bytesOnDisk: await directorySize(dir),
    seconds: (performance.now() - startedAt) / 1000,
    full: previous === undefined,
    analysed: fresh.length,
    reused: reuse.length,
    removed: previous ? [...previous.docs.url].filter((u) => !kept.has(u)).length : 0,
    skipped: extras.skipped,
  };
}

/** Copies the postings of reused documents (numbered from `first` on) from the previous generation, term by term. */
function copyPostings(previous: IndexGeneration, reuse: readonly { old: number }[], first: number, builder: PostingsBuilder, fieldLength: number[]): void {
  const newNumber = new Int32Array(previous.docs.url.length).fill(-1);
  reuse.forEach((r, k) => {
    newNumber[r.old] = first + k;
    for (let f = 0; f < FIELD_COUNT; f++) fieldLength[(first + k) * FIELD_COUNT + f] = previous.docs.fieldLength[r.old * FIELD_COUNT + f]!;
  });
  const { terms, words } = previous.terms;
  for (let t = 0; t < terms.length; t++) {
    // Pairs are made anew from every page's positions (builder.addPhrasePairs).
    if (isPhrasePairToken(terms.at(t)!)) continue;
    let id = -1;
    const list = previous.lists.list(t);
    let positions: AllPositions | undefined;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = newNumber[list.docs[i]!]!;
      if (doc < 0) continue;
      if (id < 0) {
        id = builder.termId(terms.at(t)!, words.at(t)!);
        // Reused pages' other surface words, once each (their document counts are not kept).
        builder.addForms(id, previous.terms.forms?.at(t)?.split(' ').filter((w) => w !== ''));
        positions = previous.lists.allPositions(t);
      }
      builder.add(id, doc, list.tfs, i * FIELD_COUNT, positions!.bytes, positions!.offsets[i]!, positions!.offsets[i + 1]!);
    }
  }
}

/** The documents' word maps as word-map.bin and word-map-offsets.bin hold them. */
function concatenated(maps: readonly ArrayLike<number>[]): { wordMap: Uint32Array; wordMapOffsets: Uint32Array } {
  const wordMapOffsets = new Uint32Array(maps.length + 1);
  maps.forEach((m, d) => (wordMapOffsets[d + 1] = wordMapOffsets[d]! + m.length));
  const wordMap = new Uint32Array(wordMapOffsets[maps.length]!);
  maps.forEach((m, d) => wordMap.set(m, wordMapOffsets[d]));
  return { wordMap, wordMapOffsets };
}

/** Where each document's record is in stored.bin (filled in as the records are written). */
type StoredColumns = Pick<DocColumns, 'storedOffset' | 'storedLength' | 'storedHeaderLength' | 'storedBodyLength'>;

function newStoredColumns(documents: number): StoredColumns {
  return {
    storedOffset: new Float64Array(documents),
    storedLength: new Uint32Array(documents),
    storedHeaderLength: new Uint32Array(documents),
    storedBodyLength: new Uint32Array(documents),
  };
}

/** A document once its record is written: what the rest of the build reads of it (links, title, host,
 * language, the first sections the typeahead offers: headings, not definition terms), without its text. */
function withoutText(doc: IndexDocument, maxSections: number): IndexDocument {
  const { title, url, language, sections } = doc.stored;
  return { ...doc, stored: { title, url, language, body: '', headings: [], anchor: [], ...(sections !== undefined ? { sections: sections.filter((s) => s.term !== true).slice(0, maxSections) } : {}) } };
}

function docColumns(docs: IndexDocument[], fieldLength: number[], bodyFrequency: Uint32Array, stored: StoredColumns): DocColumns {
  return {
    url: docs.map((d) => d.stored.url),
    title: docs.map((d) => d.title ?? d.stored.title),
    language: docs.map((d) => d.stored.language),
    host: docs.map((d) => d.host),
    inbound: Uint32Array.from(docs, (d) => d.inbound),
    inboundHosts: Uint32Array.from(docs, (d) => d.inboundHosts),
    ...(docs.some((d) => d.contentInbound !== undefined) ? { contentInbound: Uint32Array.from(docs, (d) => d.contentInbound ?? d.inbound) } : {}),
    fieldLength: Uint32Array.from(fieldLength),
    ...stored,
    bodyFrequency,
    hub: Float32Array.from(docs, (d) => Math.round((d.hub ?? 0) * 1000) / 1000),
    listing: Float32Array.from(docs, (d) => Math.round((d.listing ?? 0) * 1000) / 1000),
    date: Float64Array.from(docs, (d) => d.date ?? NaN),
  };
}

/** stored.bin's records: `records(docs, first)` gives the pieces of documents first, first + 1, ...
 * (in order, after those given before), filling in their offsets and lengths in `columns` as the
 * pieces are taken; `place` does the same for a record copied whole. */
function storedRecords(columns: StoredColumns): {
  records: (docs: readonly StoredDoc[], first: number) => Generator<string | Uint8Array>;
  place: (d: number, length: number, headBytes: number, bodyBytes: number) => void;
} {
  let offset = 0;
  const place = (d: number, length: number, headBytes: number, bodyBytes: number): void => {
    columns.storedOffset[d] = offset;
    columns.storedLength[d] = length;
    columns.storedHeaderLength[d] = headBytes;
    columns.storedBodyLength[d] = bodyBytes;
    offset += length;
  };
  function* records(docs: readonly StoredDoc[], first: number): Generator<string | Uint8Array> {
    for (let i = 0; i < docs.length; i++) {
      const { body, language, sections, context, ...others } = docs[i]!;
      // What a snippet reads first (shared/index-format stored.bin): a well-linked page's inbound anchor
      // texts, most of its record, come last. The context is shown with every result, so it is there too.
      const head = encodeStoredHeader(language, sections, context);
      const tail = JSON.stringify(others);
      const headBytes = head.length;
      const bodyBytes = Buffer.byteLength(body, 'utf8');
      place(first + i, headBytes + bodyBytes + Buffer.byteLength(tail, 'utf8'), headBytes, bodyBytes);
      yield head;
      yield body;
      yield tail;
    }
  }
  return { records, place };
}

/** Bytes of the previous stored.bin read at a time when its records are copied. */
const COPY_CHUNK_BYTES = 4 * 2 ** 20;

/**
 * Appends the reused documents' records (numbered from `first` on) to stored.bin, copied from the
 * previous generation's: a record is made from its document alone, and an unchanged fingerprint is an
 * unchanged document, so the bytes are those `records` would make, without the document's text held.
 * Runs of records that lie together are read at once.
 */
async function copyRecords(previous: IndexGeneration, reuse: readonly { old: number }[], first: number, stored: ReturnType<typeof storedRecords>, draft: GenerationDraft): Promise<void> {
  const { storedOffset, storedLength, storedHeaderLength, storedBodyLength } = previous.docs;
  const handle = await open(previous.storedPath, 'r');
  try {
    const chunks = new StoredChunks(handle.fd, previous.storedChunks);
    for (let i = 0; i < reuse.length; ) {
      const start = storedOffset[reuse[i]!.old]!;
      let end = start;
      let j = i;
      while (j < reuse.length && storedOffset[reuse[j]!.old] === end && (j === i || end - start + storedLength[reuse[j]!.old]! <= COPY_CHUNK_BYTES)) {
        end += storedLength[reuse[j]!.old]!;
        j++;
      }
      let bytes: Buffer;
      try {
        bytes = chunks.read(start, end - start);
      } catch (e) {
        throw damagedIndexError(previous.dir, INDEX_FILES.stored, (e as Error).message, e);
      }
      if (bytes.length !== end - start) throw damagedIndexError(previous.dir, INDEX_FILES.stored, `ends before byte ${end}`);
      for (let k = i; k < j; k++) {
        const old = reuse[k]!.old;
        stored.place(first + k, storedLength[old]!, storedHeaderLength[old]!, storedBodyLength[old]!);
      }
      await draft.appendStored([bytes]);
      i = j;
    }
  } finally {
    await handle.close();
  }
}

/** The columns of the first `documents` (a source that gave fewer documents than it said). */
function trimmed(columns: StoredColumns, documents: number): StoredColumns {
  return {
    storedOffset: columns.storedOffset.subarray(0, documents),
    storedLength: columns.storedLength.subarray(0, documents),
    storedHeaderLength: columns.storedHeaderLength.subarray(0, documents),
    storedBodyLength: columns.storedBodyLength.subarray(0, documents),
  };
}

function topLinked(docs: DocColumns, count: number): LinkedPage[] {
  return Array.from({ length: docs.url.length }, (_, i) => i)
    .filter((i) => docs.inbound[i]! > 0)
    .sort((a, b) => docs.inbound[b]! - docs.inbound[a]! || docs.inboundHosts[b]! - docs.inboundHosts[a]!)
    .slice(0, count)
    .map((i) => ({ url: docs.url.at(i)!, title: docs.title.at(i)!, inbound: docs.inbound[i]!, inboundHosts: docs.inboundHosts[i]! }));
}
