// Reads one index generation from disk (see index-format.ts), checking the format version
// before anything else. Used by web/search to serve and by the indexer to re-index incrementally.

import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { GleanerError } from '../errors.js';
import { shellWord } from '../shell-word.js';
import {
  INDEX_FILES,
  INDEX_FORMAT_VERSION,
  currentGeneration,
  type DocNumbers,
  type IndexManifest,
  type IndexStats,
} from './index-format.js';
import { decodeDocNumbers } from './doc-numbers.js';
import { decodeDocStrings, type DocStrings } from './doc-strings.js';
import { decodeTermTable, TermLookup, type TermColumns } from './term-table.js';
import { PostingLists, type PostingListsOptions } from './posting-lists.js';
import { decodeChunkTable, type StoredChunkTable } from './stored-chunks.js';
import { storedRecordFault, termTableFault, wordMapFault } from './index-consistency.js';
import { damagedIndexError } from './damage.js';

export interface IndexGeneration {
  dir: string;
  manifest: IndexManifest;
  /** DocColumns as read: the strings decoded a value at a time (doc-strings.ts), and each page's site key. */
  docs: DocNumbers & DocStrings;
  terms: TermColumns;
  /** A term's number from its text (term-table.ts). */
  termIds: TermLookup;
  /** offsets.bin: term t's postings are numbers [offsets[t], offsets[t + 1]). */
  offsets: Uint32Array;
  /** Each term's documents, frequencies and word positions, read when first asked (posting-lists.ts). */
  lists: PostingLists;
  /** Per document, where its body words and sections start (word-map.ts). */
  wordMap: Uint32Array;
  wordMapOffsets: Uint32Array;
  /** Path of stored.bin, read on demand through its chunk table (stored-chunks.ts). */
  storedPath: string;
  storedChunks: StoredChunkTable;
}

/** Throws INDEX_FORMAT when the manifest's version is not the one this Gleaner reads. */
export async function readManifest(dir: string): Promise<IndexManifest> {
  const manifest = await readJson<IndexManifest>(dir, INDEX_FILES.manifest);
  const version = manifest.formatVersion;
  if (version !== INDEX_FORMAT_VERSION) {
    const hint =
      typeof version === 'number' && version > INDEX_FORMAT_VERSION
        ? 'it was built by a newer Gleaner: upgrade Gleaner, or run `gleaner index --full` with this one'
        : 'it was built by an older Gleaner: run `gleaner index --full` to rebuild it';
    throw new GleanerError(
      'INDEX_FORMAT',
      `the index in ${dir} has format v${String(version)} but this Gleaner reads v${INDEX_FORMAT_VERSION}; ${hint}`,
    );
  }
  return manifest;
}

/** What `decode` makes of a file's bytes, or the damaged-index error naming the file and the fault. */
function decodedFile<T>(dir: string, file: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    throw damagedIndexError(dir, file, (e as Error).message.replace(`${file} `, ''), e);
  }
}

export function noIndexError(dataDir: string): GleanerError {
  return new GleanerError('NOT_FOUND', `no index in ${dataDir}: run \`gleaner index --data ${shellWord(dataDir)}\` first`);
}

/** The live generation of `dataDir`, or NOT_FOUND when none was built. */
export async function readCurrentGeneration(dataDir: string, lists: Partial<PostingListsOptions> = {}): Promise<IndexGeneration> {
  const dir = await currentGeneration(dataDir);
  if (dir === undefined) throw noIndexError(dataDir);
  return readGeneration(dir, lists);
}

export async function readGeneration(dir: string, lists: Partial<PostingListsOptions> = {}): Promise<IndexGeneration> {
  const manifest = await readManifest(dir);
  const [stringBytes, numbers, termBytes, offsets, termOffsets, wordMap, wordMapOffsets, chunkTable] = await Promise.all([
    readBytes(dir, INDEX_FILES.docStrings),
    readBytes(dir, INDEX_FILES.docNumbers),
    readBytes(dir, INDEX_FILES.terms),
    readBytes(dir, INDEX_FILES.offsets),
    readBytes(dir, INDEX_FILES.termOffsets),
    readBytes(dir, INDEX_FILES.wordMap),
    readBytes(dir, INDEX_FILES.wordMapOffsets),
    readBytes(dir, INDEX_FILES.storedChunks),
  ]);
  // A byte garbled in place, found before anything is decoded (generations written before checksums
  // have none, and are checked as below only).
  const whole: [string, Buffer][] = [
    [INDEX_FILES.docStrings, stringBytes],
    [INDEX_FILES.docNumbers, numbers],
    [INDEX_FILES.terms, termBytes],
    [INDEX_FILES.offsets, offsets],
    [INDEX_FILES.termOffsets, termOffsets],
    [INDEX_FILES.wordMap, wordMap],
    [INDEX_FILES.wordMapOffsets, wordMapOffsets],
    [INDEX_FILES.storedChunks, chunkTable],
  ];
  for (const [file, bytes] of whole) {
    const expected = manifest.checksums?.[file];
    if (expected !== undefined && crc32(bytes) !== expected) throw damagedIndexError(dir, file, `its checksum is not the one written (${bytes.byteLength} bytes)`);
  }
  const { documents, terms: termCount } = manifest;
  // What every file must hold given the manifest's counts: a file cut short, or one from another
  // build, fails here rather than as a wrong answer or a RangeError in the middle of a query.
  const expect = (file: string, ok: boolean, why: string): void => {
    if (!ok) throw damagedIndexError(dir, file, why);
  };
  const strings = decodedFile(dir, INDEX_FILES.docStrings, () => decodeDocStrings(stringBytes));
  expect(INDEX_FILES.docStrings, strings.url.length === documents, `not ${documents} documents`);
  const terms = decodedFile(dir, INDEX_FILES.terms, () => decodeTermTable(termBytes));
  expect(INDEX_FILES.terms, terms.terms.length === termCount, `not ${termCount} terms`);
  expect(INDEX_FILES.offsets, offsets.byteLength === 4 * (termCount + 1), `${offsets.byteLength} bytes, not the ${4 * (termCount + 1)} of ${termCount} terms`);
  expect(INDEX_FILES.termOffsets, termOffsets.byteLength === 16 * (termCount + 1), `${termOffsets.byteLength} bytes, not the ${16 * (termCount + 1)} of ${termCount} terms`);
  expect(INDEX_FILES.wordMapOffsets, wordMapOffsets.byteLength === 4 * (documents + 1), `${wordMapOffsets.byteLength} bytes, not the ${4 * (documents + 1)} of ${documents} documents`);
  expect(INDEX_FILES.wordMap, wordMap.byteLength % 4 === 0, `${wordMap.byteLength} bytes, not a whole number of entries`);
  const docNumbers = decodedFile(dir, INDEX_FILES.docNumbers, () => decodeDocNumbers(numbers));
  expect(INDEX_FILES.docNumbers, docNumbers.inbound.length === documents, `not ${documents} documents`);
  const storedChunks = decodedFile(dir, INDEX_FILES.storedChunks, () => decodeChunkTable(chunkTable));
  const storedEnd = documents === 0 ? 0 : docNumbers.storedOffset[documents - 1]! + docNumbers.storedLength[documents - 1]!;
  expect(INDEX_FILES.storedChunks, storedChunks.plainBytes === storedEnd, `${storedChunks.plainBytes} plain bytes, not the ${storedEnd} the records take`);
  // The files read a term at a time end where term-offsets.bin says: one cut short or overwritten is
  // refused at load (a reload keeps the generation it has), not met by every query that reads its end.
  // stored.bin (read a passage at a time) likewise ends where its chunk table says.
  const termEnds = float64View(termOffsets);
  const [postingsBytes, positionsBytes, storedBytes] = await Promise.all([fileBytes(dir, INDEX_FILES.postings), fileBytes(dir, INDEX_FILES.positions), fileBytes(dir, INDEX_FILES.stored)]);
  expect(INDEX_FILES.postings, postingsBytes === termEnds[termCount], `${postingsBytes} bytes, not the ${termEnds[termCount]} ${INDEX_FILES.termOffsets} records`);
  expect(INDEX_FILES.positions, positionsBytes === termEnds[2 * termCount + 1], `${positionsBytes} bytes, not the ${termEnds[2 * termCount + 1]} ${INDEX_FILES.termOffsets} records`);
  const storedEndBytes = storedChunks.ends[storedChunks.ends.length - 1] ?? 0;
  expect(INDEX_FILES.stored, storedBytes === storedEndBytes, `${storedBytes} bytes, not the ${storedEndBytes} ${INDEX_FILES.storedChunks} records`);
  const postingOffsets = uint32View(offsets);
  const mapOffsets = uint32View(wordMapOffsets);
  const words = uint32View(wordMap);
  expect(INDEX_FILES.offsets, postingOffsets[termCount] === manifest.postings, `its last entry is not the ${manifest.postings} postings`);
  expect(INDEX_FILES.wordMap, mapOffsets[documents] === words.length, `${words.length} entries, not the ${mapOffsets[documents]} that ${INDEX_FILES.wordMapOffsets} counts`);
  // Right sizes, wrong bytes: the tables must agree with each other (index-consistency.ts).
  const fault = termTableFault(postingOffsets, termEnds, documents) ?? storedRecordFault(docNumbers) ?? wordMapFault(mapOffsets);
  if (fault !== undefined) throw damagedIndexError(dir, fault.file, fault.why);
  return {
    dir,
    manifest,
    docs: { ...strings, ...docNumbers },
    terms,
    termIds: new TermLookup(terms.terms),
    offsets: postingOffsets,
    lists: new PostingLists(dir, postingOffsets, termEnds, documents, lists),
    wordMap: words,
    wordMapOffsets: mapOffsets,
    storedPath: join(dir, INDEX_FILES.stored),
    storedChunks,
  };
}

/** Per document, the hash of what the indexer analysed (build.ts fingerprintOf): what an incremental build compares. */
export async function readFingerprints(dir: string): Promise<string[]> {
  return readJson<string[]>(dir, INDEX_FILES.fingerprints);
}

export async function readIndexStatsFile(dir: string): Promise<IndexStats> {
  return readJson<IndexStats>(dir, INDEX_FILES.stats);
}

/** A file of the generation; a missing one is damage (a generation is written whole, then made live). */
async function readBytes(dir: string, name: string): Promise<Buffer> {
  try {
    return await readFile(join(dir, name));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw damagedIndexError(dir, name, 'missing', e);
    throw e;
  }
}

/** A file's size, without reading it (postings.bin and positions.bin are read a term at a time). */
async function fileBytes(dir: string, name: string): Promise<number> {
  try {
    return (await stat(join(dir, name))).size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw damagedIndexError(dir, name, 'missing', e);
    throw e;
  }
}

async function readJson<T>(dir: string, name: string): Promise<T> {
  const text = (await readBytes(dir, name)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw damagedIndexError(dir, name, `not JSON (${(e as Error).message})`, e);
  }
  // Every file is an object or an array: `null` or a bare number is a file overwritten.
  if (typeof value !== 'object' || value === null) throw damagedIndexError(dir, name, 'not a JSON object or array');
  return value as T;
}

/** A Uint32Array over a file's bytes (little-endian, as written on every platform Node runs on). */
function uint32View(buf: Buffer): Uint32Array {
  if (buf.byteOffset % 4 === 0) return new Uint32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const copy = new Uint8Array(buf.byteLength);
  copy.set(buf);
  return new Uint32Array(copy.buffer);
}

function float64View(buf: Buffer): Float64Array {
  const bytes = buf.byteOffset % 8 === 0 ? buf : new Uint8Array(buf); // a copy starts its own buffer
  return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
}
