// Builds an index generation from documents whose links are already counted: analyses each document
// (or, incrementally, reuses the previous generation's postings for a document whose fingerprint did
// not change), lays out the postings and writes the generation atomically.

import { buildTypeahead } from './page-typeahead.js';
import { createHash } from 'node:crypto';
import {
  FIELD_COUNT,
  FIELDS,
  INDEX_FORMAT_VERSION,
  type TermPositions,
  type DocColumns,
  type IndexStats,
  type LinkedPage,
  type StoredDoc,
  readCurrentGeneration,
  readFingerprints,
  damagedIndexError,
  INDEX_FILES,
  encodeLists,
  type IndexGeneration,
} from '../shared/index-format/index.js';
import { isGleanerError } from '../shared/errors.js';
import type { CrawlStats } from '../shared/store/index.js';
import type { AnalyzedDoc } from './analyze-doc.js';
import { createDocAnalyzer } from './analyze-pool.js';
import type { IndexerOptions } from './options.js';
import { PostingsBuilder } from './postings.js';
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

export function fingerprintOf(doc: StoredDoc): string {
  return createHash('sha1').update(JSON.stringify(doc)).digest('base64url');
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

/**
 * Builds a generation from `documents` and makes it live. The build lets go of each document's text
 * once its stored record is written (the entry is replaced by one without it): a caller that wants its
 * documents afterwards passes a copy.
 */
export async function buildFromDocuments(
  dataDir: string,
  documents: IndexDocument[],
  extras: BuildExtras,
  options: IndexerOptions,
  startedAt = performance.now(),
): Promise<IndexBuildSummary> {
  const progress = options.onProgress ?? (() => {});
  const before = await previousGeneration(dataDir, options.full);
  try {
    const draft = await startGeneration(dataDir);
    try {
      return await build(draft, documents, extras, options, startedAt, progress, before);
    } catch (e) {
      await draft.abandon();
      throw e;
    }
  } finally {
    before?.gen.lists.close();
  }
}

async function build(
  draft: GenerationDraft,
  documents: IndexDocument[],
  extras: BuildExtras,
  options: IndexerOptions,
  startedAt: number,
  progress: NonNullable<IndexerOptions['onProgress']>,
  before: { gen: IndexGeneration; fingerprints: string[] } | undefined,
): Promise<IndexBuildSummary> {
  const previous = before?.gen;
  const fingerprints = documents.map((d) => fingerprintOf(d.stored));

  // Reused documents keep their relative order and come first, so every term's postings stay ascending
  // when the previous postings are copied over before the new documents are analysed.
  const oldByUrl = new Map<string, number>();
  previous?.docs.url.forEach((url, i) => oldByUrl.set(url, i));
  const reuse: { doc: number; old: number }[] = [];
  const fresh: number[] = [];
  documents.forEach((d, i) => {
    const old = oldByUrl.get(d.stored.url);
    if (before && old !== undefined && before.fingerprints[old] === fingerprints[i]) reuse.push({ doc: i, old });
    else fresh.push(i);
  });
  reuse.sort((a, b) => a.old - b.old);
  const order = [...reuse.map((r) => r.doc), ...fresh];

  const builder = new PostingsBuilder();
  const fieldLength = new Array<number>(order.length * FIELD_COUNT).fill(0);
  if (previous && reuse.length > 0) copyPostings(previous, reuse, builder, fieldLength);
  // stored.bin is written in document order as the build goes, and each document's text let go once
  // its record is written: the reused documents' records first, then each analysed batch's.
  const storedColumns = newStoredColumns(order.length);
  const records = storedRecords(storedColumns);
  const maxSections = options.typeahead.maxSections;
  const writeRecords = async (from: number, to: number): Promise<void> => {
    await draft.appendStored(records(order.slice(from, to).map((i) => documents[i]!.stored), from));
    for (let k = from; k < to; k++) documents[order[k]!] = withoutText(documents[order[k]!]!, maxSections);
  };
  await writeRecords(0, reuse.length);
  const wordMaps: ArrayLike<number>[] = previous ? reuse.map((r) => previous.wordMap.subarray(previous.wordMapOffsets[r.old], previous.wordMapOffsets[r.old + 1])) : [];

  // Fresh documents go to the analysis threads in batches, a few batches ahead of the one whose
  // postings are being added; postings are added in document order, so every list stays ascending.
  // A batch or less (an incremental build after a small recrawl) is analysed here: starting threads
  // would cost more than it saves.
  const analyzer = createDocAnalyzer(fresh.length > ANALYZE_BATCH_DOCS ? options.analyzeThreads : 0);
  let done = 0;
  let charsDone = 0;
  let charsTotal = 0;
  for (const i of fresh) charsTotal += documents[i]!.stored.body.length;
  const report = (): void => progress({ phase: 'analyze', done, total: fresh.length, work: { done: charsDone, total: charsTotal } });
  report();
  try {
    const pending: Promise<AnalyzedDoc[]>[] = [];
    let sent = reuse.length;
    const sendAhead = (): void => {
      while (pending.length < Math.max(1, 2 * analyzer.threads) && sent < order.length) {
        const batch = order.slice(sent, sent + ANALYZE_BATCH_DOCS).map((i) => documents[i]!.stored);
        sent += batch.length;
        const analysed = analyzer.analyze(batch);
        // Awaited in turn below; a batch that fails before its turn, or after an earlier one failed,
        // is not an unhandled rejection.
        analysed.catch(() => {});
        pending.push(analysed);
      }
    };
    sendAhead();
    for (let k = reuse.length; k < order.length; ) {
      const batch = await pending.shift()!;
      sendAhead();
      const batchStart = k;
      for (const analysed of batch) {
        for (let s = 0; s < analysed.terms.length; s++) {
          const id = builder.termId(analysed.terms[s]!, analysed.words[s]!);
          builder.addForms(id, analysed.forms[s]);
          builder.add(id, k, analysed.tfs, s * FIELD_COUNT, analysed.positions, s === 0 ? 0 : analysed.positionEnds[s - 1]!, analysed.positionEnds[s]!);
        }
        for (let f = 0; f < FIELD_COUNT; f++) fieldLength[k * FIELD_COUNT + f] = analysed.fieldLength[f]!;
        wordMaps.push(analysed.wordMap);
        charsDone += documents[order[k]!]!.stored.body.length;
        k++;
        if (++done % 500 === 0) report();
      }
      await writeRecords(batchStart, k);
    }
  } finally {
    await analyzer.close();
  }
  report();
  const layout = builder.finish();

  progress({ phase: 'write', done: 0, total: 1 });
  const { bodyFrequency, postingsWithBody } = bodyFrequencies(layout.postings, layout.tfs, order.length);
  const docs = docColumns(order.map((i) => documents[i]!), fieldLength, bodyFrequency, storedColumns);
  const typeahead = buildTypeahead(
    order.map((i) => documents[i]!.stored),
    // Past the entries it holds, the pages most linked from others' content keep theirs.
    docs.contentInbound ?? docs.inbound,
    options.typeahead,
  );
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
      postings: layout.postings.length,
      avgFieldLength,
      postingsWithBody,
    },
    docs,
    fingerprints: order.map((i) => fingerprints[i]!),
    terms: { terms: layout.terms, words: layout.words, forms: layout.forms },
    offsets: layout.offsets,
    lists: encodeLists(layout.offsets, layout.postings, layout.tfs, layout.positions, layout.positionOffsets),
    ...concatenated(wordMaps),
    typeahead,
    stats,
  });
  progress({ phase: 'write', done: 1, total: 1 });
  const kept = new Set(documents.map((d) => d.stored.url));
  return {
    indexDir: dir,
    documents: order.length,
    terms: layout.terms.length,
    postings: layout.postings.length,
    bytesOnDisk: await directorySize(dir),
    seconds: (performance.now() - startedAt) / 1000,
    full: previous === undefined,
    analysed: fresh.length,
    reused: reuse.length,
    removed: previous ? previous.docs.url.filter((u) => !kept.has(u)).length : 0,
    skipped: extras.skipped,
  };
}

/** Copies the postings of reused documents (renumbered) from the previous generation, term by term. */
function copyPostings(previous: IndexGeneration, reuse: { doc: number; old: number }[], builder: PostingsBuilder, fieldLength: number[]): void {
  const newNumber = new Int32Array(previous.docs.url.length).fill(-1);
  reuse.forEach((r, k) => {
    newNumber[r.old] = k;
    for (let f = 0; f < FIELD_COUNT; f++) fieldLength[k * FIELD_COUNT + f] = previous.docs.fieldLength[r.old * FIELD_COUNT + f]!;
  });
  const { terms, words } = previous.terms;
  for (let t = 0; t < terms.length; t++) {
    let id = -1;
    const list = previous.lists.list(t);
    let positions: TermPositions | undefined;
    for (let i = 0; i < list.docs.length; i++) {
      const doc = newNumber[list.docs[i]!]!;
      if (doc < 0) continue;
      if (id < 0) {
        id = builder.termId(terms[t]!, words[t]!);
        // Reused pages' other surface words, once each (their document counts are not kept).
        builder.addForms(id, previous.terms.forms?.[t]?.split(' ').filter((w) => w !== ''));
        positions = previous.lists.positions(t);
      }
      builder.add(id, doc, list.tfs, i * FIELD_COUNT, positions!.bytes, positions!.offsets[i]!, positions!.offsets[i + 1]!);
    }
  }
}

/** Per document, the sum of its postings' body frequencies, and how many postings have one (k1's unit, rank.ts). */
function bodyFrequencies(postings: Uint32Array, tfs: Uint8Array, documents: number): { bodyFrequency: Uint32Array; postingsWithBody: number } {
  const BODY = FIELDS.indexOf('body');
  const bodyFrequency = new Uint32Array(documents);
  let postingsWithBody = 0;
  for (let p = 0; p < postings.length; p++) {
    const tf = tfs[p * FIELD_COUNT + BODY]!;
    if (tf === 0) continue;
    bodyFrequency[postings[p]!]! += tf;
    postingsWithBody++;
  }
  return { bodyFrequency, postingsWithBody };
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
 * language, the first sections the typeahead offers), without its text. */
function withoutText(doc: IndexDocument, maxSections: number): IndexDocument {
  const { title, url, language, sections } = doc.stored;
  return { ...doc, stored: { title, url, language, body: '', headings: [], anchor: [], ...(sections !== undefined ? { sections: sections.slice(0, maxSections) } : {}) } };
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
  };
}

/** stored.bin's records: `records(docs, first)` gives the pieces of documents first, first + 1, ...
 * (in order, after those given before), filling in their offsets and lengths in `columns` as the
 * pieces are taken. */
function storedRecords(columns: StoredColumns): (docs: readonly StoredDoc[], first: number) => Generator<string> {
  let offset = 0;
  return function* records(docs, first) {
    for (let i = 0; i < docs.length; i++) {
      const d = first + i;
      const { body, language, sections, ...others } = docs[i]!;
      // What a snippet reads first (shared/index-format stored.bin): a well-linked page's inbound anchor
      // texts, most of its record, come last.
      const head = JSON.stringify(sections === undefined ? { language } : { language, sections });
      const tail = JSON.stringify(others);
      const headBytes = Buffer.byteLength(head, 'utf8');
      const bodyBytes = Buffer.byteLength(body, 'utf8');
      const length = headBytes + bodyBytes + Buffer.byteLength(tail, 'utf8');
      columns.storedOffset[d] = offset;
      columns.storedLength[d] = length;
      columns.storedHeaderLength[d] = headBytes;
      columns.storedBodyLength[d] = bodyBytes;
      offset += length;
      yield head;
      yield body;
      yield tail;
    }
  };
}

function topLinked(docs: DocColumns, count: number): LinkedPage[] {
  return [...docs.url.keys()]
    .filter((i) => docs.inbound[i]! > 0)
    .sort((a, b) => docs.inbound[b]! - docs.inbound[a]! || docs.inboundHosts[b]! - docs.inboundHosts[a]!)
    .slice(0, count)
    .map((i) => ({ url: docs.url[i]!, title: docs.title[i]!, inbound: docs.inbound[i]!, inboundHosts: docs.inboundHosts[i]! }));
}
