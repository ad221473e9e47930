// Every indexer option with its default, in one place. `gleaner index` flags map onto these.

import { availableParallelism } from 'node:os';
import { DEFAULT_LISTING_OPTIONS, type ListingOptions } from './listing.js';
import { DEFAULT_TEMPLATE_OPTIONS, type TemplateOptions } from './templates.js';
import { DEFAULT_TYPEAHEAD_OPTIONS, type TypeaheadOptions } from './page-typeahead.js';
import { STORED_CHUNK_BYTES } from '../shared/index-format/index.js';
import { ENCODE_THREAD_MIN_RECORDS } from './encode-thread.js';

export interface IndexProgress {
  phase: 'read' | 'links' | 'analyze' | 'write';
  done: number;
  /** 0 when not known yet. */
  total: number;
}

export interface IndexerOptions {
  /** Rebuild everything instead of re-analysing only changed pages. Default false. */
  full: boolean;
  /** Where the crawl's pages are: a `postgres://` URL (a shared crawl's store), or undefined for the
   * LevelDB store in the data dir. The index is written into the data dir either way. */
  store?: string;
  /** Characters of a page's text indexed; the rest is ignored (a 10 MB log file is not 10 MB of words). Default 1,000,000, what extraction keeps (crawler/extract.ts maxTextChars). */
  maxBodyChars: number;
  /** Inbound anchor texts kept per page (one per linking page). Default 500. */
  maxAnchorsPerPage: number;
  /** How many most-linked pages the stats page lists. Default 20. */
  topLinkedCount: number;
  /** Site template detection (indexer/templates.ts), or false to index every page's whole text as before. */
  templates: TemplateOptions | false;
  /** What makes a page a source listing (indexer/listing.ts). */
  listing: ListingOptions;
  /** The page typeahead's size (indexer/page-typeahead.ts). */
  typeahead: TypeaheadOptions;
  /** Plain bytes per deflated chunk of stored.bin (shared/index-format stored-chunks.ts): what the
   * searcher inflates to read a snippet. Default 16 KiB. */
  storedChunkBytes: number;
  /** The words in most documents are common, at most `phrasePairWords` of them and each in at least
   * `phrasePairMinDocs` documents, and every two of them side by side get a pair term, so a phrase of
   * common words finds its few pages without checking thousands (shared/index-format phrase-pairs.ts).
   * Defaults 1,000 documents (a phrase with a rarer word has at most as many candidates, fewer than the
   * searcher checks: web/search SearcherOptions.maxPhraseChecks) and 200 words (DESIGN.md "Pairs of common words for phrases"). */
  phrasePairMinDocs: number;
  phrasePairWords: number;
  /** Worker threads that analyse documents; 0 analyses in the build's own thread. Default: one per core. */
  analyzeThreads: number;
  /** Postings from which positions.bin is encoded on a thread of its own while the build's thread
   * encodes postings.bin (encode-thread.ts); Infinity never. Default: ENCODE_THREAD_MIN_RECORDS, 2
   * million (SciFact's 5,183 abstracts make 0.86 million, SciFact x20 19.5 million). */
  encodeThreadMinRecords: number;
  /** Called as the build advances; `gleaner index` draws its progress line from it. */
  onProgress?: (progress: IndexProgress) => void;
}

export const DEFAULT_INDEXER_OPTIONS: Readonly<IndexerOptions> = {
  full: false,
  maxBodyChars: 1_000_000,
  maxAnchorsPerPage: 500,
  topLinkedCount: 20,
  templates: DEFAULT_TEMPLATE_OPTIONS,
  listing: DEFAULT_LISTING_OPTIONS,
  typeahead: DEFAULT_TYPEAHEAD_OPTIONS,
  storedChunkBytes: STORED_CHUNK_BYTES,
  phrasePairMinDocs: 1000,
  phrasePairWords: 200,
  // The build's thread adds each batch's postings while the workers analyse the next ones.
  analyzeThreads: availableParallelism(),
  encodeThreadMinRecords: ENCODE_THREAD_MIN_RECORDS,
};

export function resolveIndexerOptions(options: Partial<IndexerOptions> = {}): IndexerOptions {
  const merged = { ...DEFAULT_INDEXER_OPTIONS };
  // Callers outside TypeScript do pass undefined: it means "the default".
  for (const [key, value] of Object.entries(options as Record<string, unknown>)) if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}
