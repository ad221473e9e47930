// The page typeahead (page-typeahead.ts) built in a worker thread, beside the build's last steps. Those
// steps (laying out the postings, writing the generation) run on the build thread alone, the analysis
// threads done; the typeahead is about a quarter of them (2.5 of 9 s on the Rust docs: flexsearch's
// adding and export, then the encoding) and fills the heap with its own objects. In a thread of its
// own it takes the other core, and answers typeahead.ndjson's lines as bytes, off the build thread's
// heap. When the compiled worker script is not there (tests running the TypeScript sources), or it
// fails, the typeahead is built in this thread: same function, same bytes.

import { encodeTypeahead, type StoredDoc } from '../shared/index-format/index.js';
import { buildTypeahead, type TypeaheadOptions } from './page-typeahead.js';
import { onWorkerOrHere } from './worker-or-here.js';

/** What the typeahead reads of a document. */
export type TypeaheadDoc = Pick<StoredDoc, 'title' | 'sections'>;

/** What the worker is asked: the documents in order, their link counts (page-typeahead.ts), the options. */
export interface TypeaheadJob {
  docs: TypeaheadDoc[];
  inbound: Uint32Array | undefined;
  options: TypeaheadOptions;
}

/** typeahead.ndjson's lines (shared/index-format encodeTypeahead), each as UTF-8. */
export function typeaheadBytes(job: TypeaheadJob): Uint8Array[] {
  const encoder = new TextEncoder();
  // One array buffer per line, so each can be handed to another thread whole.
  return encodeTypeahead(buildTypeahead(job.docs, job.inbound, job.options)).map((line) => encoder.encode(line));
}

/** Starts the typeahead of `job` in a worker thread; `workerScript` defaults to the compiled typeahead-worker.js beside this module. */
export function startTypeahead(job: TypeaheadJob, workerScript = new URL('./typeahead-worker.js', import.meta.url)): Promise<Uint8Array[]> {
  const isLines = (answer: unknown): answer is Uint8Array[] => Array.isArray(answer);
  return onWorkerOrHere(workerScript, job, isLines, () => typeaheadBytes(job));
}
