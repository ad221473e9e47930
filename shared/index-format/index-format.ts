// The index on disk, between the indexer (writes) and web/search (reads, read-only).
//
// <dataDir>/index/CURRENT            the name of the live generation, replaced by an atomic rename
// <dataDir>/index/gen-<id>/          one complete index, never modified after CURRENT points at it:
//   manifest.json     IndexManifest (format version first: readers check it before anything else; then
//                     the checksums of the files read whole)
//   doc-strings.bin   the string columns of DocColumns (url, title, language, host) and each page's
//                     site key, packed (doc-strings.ts)
//   doc-numbers.bin   the numeric columns of DocColumns as typed arrays (doc-numbers.ts)
//   fingerprints.json per document, a hash of what was analysed (read by an incremental build only)
//   terms.bin         TermTable: the vocabulary with a display word per term, packed (term-table.ts)
//   offsets.bin       Uint32 LE, terms + 1 entries: term t's postings are numbers [offsets[t], offsets[t+1])
//   term-offsets.bin  Float64 LE: where each term's bytes start in postings.bin (terms + 1 entries), then
//                     in positions.bin (terms + 1 entries); term-codec.ts
//   postings.bin      per term, its documents (ascending, as gaps) and its frequency in each field,
//                     compressed (term-codec.ts)
//   positions.bin     per term, each posting's word positions as variable-byte deltas (positions.ts),
//                     after their lengths (term-codec.ts)
//                     (offsets.bin and term-offsets.bin are read whole; the rest a term at a time,
//                     posting-lists.ts)
//   word-map.bin, word-map-offsets.bin  per document, where its body words and sections start (word-map.ts)
//   stored.bin        per document at docs.storedOffset: its language, context and sections (as
//                     columns: a little JSON, then the headings and ids as UTF-8 and the numbers as
//                     varints; stored-header.ts; storedHeaderLength bytes), the body as raw UTF-8 (storedBodyLength bytes), then
//                     the rest of its StoredDoc as JSON (to storedLength): a snippet reads what it
//                     needs and the beginning of a long page, without the inbound anchor texts that
//                     are most of a well-linked page's record (stored-fields.ts); offsets count
//                     these plain bytes, which lie on disk deflated in chunks (stored-chunks.ts)
//   stored-chunks.bin where each chunk of stored.bin lies (stored-chunks.ts)
//   stats.json        IndexStats: what /stats shows (crawl counters, most-linked pages)
//
// A crash while building leaves at worst an unreferenced gen-* directory, which the next build removes.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CrawlStats } from '../store/index.js';
import { GleanerError } from '../errors.js';
import { shellWord } from '../shell-word.js';

/** Bump when any file's layout or meaning changes; readers refuse every other version. */
export const INDEX_FORMAT_VERSION = 24; // 2: word-pair terms; 3: raw bodies in stored.bin; 4: no PageRank; 5: templates out of the body, content links, hubs, sections, identifier and accent-fold terms; 6: word positions and word maps; 7: numeric doc columns in doc-numbers.bin, fingerprints apart, body frequency sums; 8: postings and positions compressed per term; 9: stored.bin records begin with what a snippet reads; 10: stopword pairs, defined names as heading words (an index of 9 would answer without them: rebuilt in full); 11: defined-name terms; 12: listing share per document, hyphenated compounds joined; 13: stored.bin deflated in chunks; 14: words with a symbol suffix (`c++`, `c#`) as names, invisible characters read through inside words, no fold token for one letter, snake_case names run together; 15: pairs of common words for phrases (phrase-pairs.ts); 16: the string columns packed in doc-strings.bin, each page's site key among them, and the term table in terms.bin; 17: a stored record's sections as columns (stored-header.ts); 18: those columns' headings, ids and numbers after the head's JSON, not in it; 19: each page's date (indexer/page-date.ts) in doc-numbers.bin; 20: Thai, Lao, Khmer and Burmese runs cut into words by the segmenter (shared/analysis/cjk.ts); 21: fold tokens of Greek, Arabic and Hebrew words without their marks (shared/analysis/accents.ts); 22: a member after `#` joined to its class as one identifier, read as `.` (`String#split`: `string.split`; shared/analysis/identifiers.ts); 23: a function after its module and one `:` joined so too (`ets:lookup`: `ets.lookup`), `::` unchanged; 24: a one-word defined name as spelled and under its stem apart (shared/analysis definedStemToken), and a type in a namespace also as C names it (`Gtk.Window`: `GtkWindow`, namespacedTypeJoined)

/** The BM25F fields, in the order of a posting's frequencies (term-codec.ts). */
export const FIELDS = ['title', 'headings', 'body', 'url', 'anchor'] as const;
export type Field = (typeof FIELDS)[number];
export const FIELD_COUNT = FIELDS.length;
export const MAX_TF = 255;

export const INDEX_FILES = {
  manifest: 'manifest.json',
  docStrings: 'doc-strings.bin',
  docNumbers: 'doc-numbers.bin',
  fingerprints: 'fingerprints.json',
  terms: 'terms.bin',
  offsets: 'offsets.bin',
  termOffsets: 'term-offsets.bin',
  postings: 'postings.bin',
  positions: 'positions.bin',
  wordMap: 'word-map.bin',
  wordMapOffsets: 'word-map-offsets.bin',
  stored: 'stored.bin',
  storedChunks: 'stored-chunks.bin',
  stats: 'stats.json',
} as const;

export interface IndexManifest {
  formatVersion: number;
  builtAt: string;
  documents: number;
  terms: number;
  postings: number;
  /** Mean field length in tokens, in FIELDS order (BM25F's length normalisation). */
  avgFieldLength: number[];
  /** Postings with a body frequency above 0: with DocNumbers.bodyFrequency, k1's unit (web/search/rank.ts). */
  postingsWithBody: number;
  /** Words in at least this many documents are common: every two of them side by side in a document
   * have a pair term (phrase-pairs.ts). */
  phrasePairMinDocs: number;
  /** Bytes of the generation directory. */
  bytesOnDisk: number;
  /** CRC-32 (zlib's) of each file read whole when the generation opens (CHECKSUMMED_FILES), checked
   * then: a byte garbled in place is found at open. Absent in generations written before. */
  checksums?: Partial<Record<string, number>>;
}

/** The files a generation reads whole when it opens, whose checksums its manifest holds. The others
 * are read a term or a passage at a time (postings, positions, stored text) or only by the indexer. */
export const CHECKSUMMED_FILES: readonly string[] = [
  INDEX_FILES.docStrings,
  INDEX_FILES.docNumbers,
  INDEX_FILES.terms,
  INDEX_FILES.offsets,
  INDEX_FILES.termOffsets,
  INDEX_FILES.wordMap,
  INDEX_FILES.wordMapOffsets,
  INDEX_FILES.storedChunks,
];

/** The numeric columns of DocColumns, in doc-numbers.bin (doc-numbers.ts); index i of each is document i. */
export interface DocNumbers {
  /** Distinct pages linking here (self-links and nofollow excluded). */
  inbound: Uint32Array;
  /** Distinct hosts of those pages. */
  inboundHosts: Uint32Array;
  /** Distinct pages linking here from their content, not their site template (indexer/templates.ts);
   * absent in indexes built without template detection. */
  contentInbound?: Uint32Array;
  /** Field lengths in tokens, FIELD_COUNT per document, flattened. */
  fieldLength: Uint32Array;
  storedOffset: Float64Array;
  storedLength: Uint32Array;
  /** Bytes of the record's head (language, sections, context: stored-header.ts) at storedOffset; the body follows them. */
  storedHeaderLength: Uint32Array;
  /** Bytes of the body; the rest of the record (JSON) follows it. */
  storedBodyLength: Uint32Array;
  /** The sum of the body frequencies of the document's postings: k1's unit is computed from these,
   * per document, instead of from every posting when a generation opens. */
  bodyFrequency: Uint32Array;
  /** Hub share per document (indexer/hub.ts): how much of its text names or repeats other pages. */
  hub: Float32Array;
  /** Listing share per document (indexer/listing.ts): its content's share inside `<pre>` when it has
   * next to no prose of its own, else 0. */
  listing: Float32Array;
  /** The page's date per document (indexer/page-date.ts), milliseconds since the epoch; NaN when it has none. */
  date: Float64Array;
}

/** A column of strings, value i for document i: an array when built, PackedStrings or CodedStrings
 * (doc-strings.ts) when read back, decoded a value at a time. */
export interface TextColumn {
  readonly length: number;
  at(index: number): string | undefined;
}

/** Per-document metadata, column-wise (loads fast and small). Index i of every column is document i.
 * The strings are doc-strings.bin, the numbers doc-numbers.bin (DocNumbers there says what each holds). */
export interface DocColumns extends DocNumbers {
  url: TextColumn;
  title: TextColumn;
  language: TextColumn;
  host: TextColumn;
}

export interface TermTable {
  terms: TextColumn;
  /** The shortest surface word seen for each term: what suggestions and "did you mean" show. */
  words: TextColumn;
  /** Each term's other surface words, most documents first, space-separated ('' for none): "did you
   * mean" offers real words ("partitioning", not only "partition"). Absent in indexes written before. */
  forms?: TextColumn;
}

/** The text of a document as indexed: snippets, phrase checks and explanations read it back. */
export interface StoredDoc {
  title: string;
  headings: string[];
  /** Meta description and visible text, as the body field saw them. */
  body: string;
  url: string;
  /** Inbound anchor texts, one per linking page. */
  anchor: string[];
  language: string;
  /** Linkable sections with `start` offsets into `body` (shared/store PageSection); absent on pages
   * without. The last may be a mark with an empty id where sections were cut (linkableSections). */
  sections?: { id: string; heading: string; start: number; term?: true }[];
  /** Identifiers the page defines (shared/store PageRecord.defines); they count as heading words. */
  defines?: string[];
  /** The title of the page one level up (indexer/parent-context.ts), shown before the result's title;
   * it is also the last of `headings`, where it is searched. Absent when the page names no parent. */
  context?: string;
}

export interface LinkedPage {
  url: string;
  title: string;
  inbound: number;
  inboundHosts: number;
}

/** What the /stats page shows; copied here because the web process cannot open the store during a crawl. */
export interface IndexStats {
  builtAt: string;
  documents: number;
  terms: number;
  bytesOnDisk: number;
  crawl?: CrawlStats;
  /** Most inbound links first. */
  topLinked: LinkedPage[];
  /** Pages the last build skipped, by reason (noindex, duplicate, gone, ...). */
  skipped: Record<string, number>;
}

export function indexRoot(dataDir: string): string {
  return join(dataDir, 'index');
}

export const CURRENT_FILE = 'CURRENT';

/** A generation directory's name: `gen-` and letters, digits, `-` or `_` (indexer/write-index.ts writes
 * `gen-` time `-` pid), never a path. */
const GENERATION_NAME = /^gen-[0-9A-Za-z_-]+$/;

/**
 * The live generation directory, or undefined when no index was ever built. Throws INDEX_FORMAT when
 * CURRENT is there but names no generation (bytes written over it, a folder in its place): what it held
 * had been taken as a path, so a NUL or `../..` ended in an unexpected error or in advice to rebuild
 * an index in `/`.
 */
export async function currentGeneration(dataDir: string): Promise<string | undefined> {
  const root = indexRoot(dataDir);
  let name: string;
  try {
    name = (await readFile(join(root, CURRENT_FILE), 'utf8')).trim();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code !== 'EISDIR') throw e;
    name = '(a folder)';
  }
  if (name === '') return undefined;
  if (!GENERATION_NAME.test(name)) {
    throw new GleanerError('INDEX_FORMAT', `the index in ${root} is damaged (${CURRENT_FILE} names no generation): rebuild it with \`gleaner index --full --data ${shellWord(dataDir)}\``);
  }
  return join(root, name);
}

/** The field text of a stored document, in FIELDS order, as the indexer analysed it. */
export function fieldTexts(doc: StoredDoc): string[] {
  return [doc.title, doc.headings.join('\n'), doc.body, urlWords(doc.url), doc.anchor.join('\n')];
}

/** The file extensions urlWords leaves out: they say how a page was made, not what it is about. */
export const DROPPED_URL_EXTENSIONS: readonly string[] = ['html', 'htm', 'php', 'asp', 'aspx'];
const DROPPED_EXTENSION = new RegExp(`\\.(${DROPPED_URL_EXTENSIONS.join('|')})(?=$|[?#/])`, 'gi');

/** The words of a URL worth matching: host labels and path segments, without scheme, `www` and the
 * extensions above. A query's `inurl:` value is read through it too (web/query/parse.ts), so
 * `inurl:git-rebase.html` asks for the words the index holds. */
export function urlWords(url: string): string {
  let rest = url.replace(/^[a-z]+:\/\//i, '');
  rest = rest.replace(/^www\./i, '');
  return decodeSafely(rest).replace(DROPPED_EXTENSION, ' ');
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** How many of a page's stored sections a result may link to: all but the mark (empty id) that ends
 * the last kept one where the crawler cut the rest (shared/store END_OF_SECTIONS). */
export function linkableSections(sections: readonly { id?: string }[]): number {
  return sections.length > 0 && sections[sections.length - 1]!.id === '' ? sections.length - 1 : sections.length;
}
