// Reads one index generation from disk (see index-format.ts), checking the format version
// before anything else. Used by web/search to serve and by the indexer to re-index incrementally.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GleanerError } from '../errors.js';
import {
  INDEX_FILES,
  INDEX_FORMAT_VERSION,
  currentGeneration,
  type DocColumns,
  type IndexManifest,
  type IndexStats,
  type TermTable,
} from './index-format.js';
import { decodeDocNumbers } from './doc-numbers.js';
import { DEFAULT_POSTING_LISTS_OPTIONS, PostingLists, type PostingListsOptions } from './posting-lists.js';

export interface IndexGeneration {
  dir: string;
  manifest: IndexManifest;
  docs: DocColumns;
  terms: TermTable;
  /** offsets.bin: term t's postings are numbers [offsets[t], offsets[t + 1]). */
  offsets: Uint32Array;
  /** Each term's documents, frequencies and word positions, read when first asked (posting-lists.ts). */
  lists: PostingLists;
  /** Per document, where its body words and sections start (word-map.ts). */
  wordMap: Uint32Array;
  wordMapOffsets: Uint32Array;
  /** Path of stored.bin, read on demand. */
  storedPath: string;
}

/** Throws INDEX_FORMAT when the manifest's version is not the one this Gleaner reads. */
export async function readManifest(dir: string): Promise<IndexManifest> {
  const manifest = JSON.parse(await readFile(join(dir, INDEX_FILES.manifest), 'utf8')) as IndexManifest;
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

export function noIndexError(dataDir: string): GleanerError {
  return new GleanerError('NOT_FOUND', `no index in ${dataDir}: run \`gleaner index --data ${dataDir}\` first`);
}

/** The live generation of `dataDir`, or NOT_FOUND when none was built. */
export async function readCurrentGeneration(dataDir: string, lists: PostingListsOptions = DEFAULT_POSTING_LISTS_OPTIONS): Promise<IndexGeneration> {
  const dir = await currentGeneration(dataDir);
  if (dir === undefined) throw noIndexError(dataDir);
  return readGeneration(dir, lists);
}

export async function readGeneration(dir: string, lists: PostingListsOptions = DEFAULT_POSTING_LISTS_OPTIONS): Promise<IndexGeneration> {
  const manifest = await readManifest(dir);
  const [strings, numbers, terms, offsets, termOffsets, wordMap, wordMapOffsets] = await Promise.all([
    readJson<Pick<DocColumns, 'url' | 'title' | 'language' | 'host'>>(dir, INDEX_FILES.docs),
    readFile(join(dir, INDEX_FILES.docNumbers)),
    readJson<TermTable>(dir, INDEX_FILES.terms),
    readFile(join(dir, INDEX_FILES.offsets)),
    readFile(join(dir, INDEX_FILES.termOffsets)),
    readFile(join(dir, INDEX_FILES.wordMap)),
    readFile(join(dir, INDEX_FILES.wordMapOffsets)),
  ]);
  const postingOffsets = uint32View(offsets);
  return {
    dir,
    manifest,
    docs: { ...strings, ...decodeDocNumbers(numbers) },
    terms,
    offsets: postingOffsets,
    lists: new PostingLists(dir, postingOffsets, float64View(termOffsets), lists),
    wordMap: uint32View(wordMap),
    wordMapOffsets: uint32View(wordMapOffsets),
    storedPath: join(dir, INDEX_FILES.stored),
  };
}

/** Per document, the hash of what the indexer analysed (build.ts fingerprintOf): what an incremental build compares. */
export async function readFingerprints(dir: string): Promise<string[]> {
  return readJson<string[]>(dir, INDEX_FILES.fingerprints);
}

export async function readIndexStatsFile(dir: string): Promise<IndexStats> {
  return readJson<IndexStats>(dir, INDEX_FILES.stats);
}

async function readJson<T>(dir: string, name: string): Promise<T> {
  return JSON.parse(await readFile(join(dir, name), 'utf8')) as T;
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
