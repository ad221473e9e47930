// positions.bin encoded on another thread while the build thread encodes postings.bin (shared/index-format
// encodePositionRuns and encodePostingRuns). The two read the same records and write nothing in common,
// and otherwise the build's last steps run on one core of two: encoding SciFact x20's 19.5 million
// records took 3.4 s on one thread, 1.9-2.0 s on two (DESIGN.md "The two files encoded on two threads").
// The records are SharedArrayBuffers (postings.ts), so the worker reads them where they are, and its
// file comes back without a copy. When the compiled worker script is not there (tests running the
// TypeScript sources), or the worker fails, this thread encodes it: same function, same bytes.

import { encodePositionRuns, type EncodedFile, type RecordParts } from '../shared/index-format/index.js';
import { onWorkerOrHere } from './worker-or-here.js';

/** What the worker is given: the records (over shared memory), the terms' ranks, how many terms. */
export interface EncodeJob {
  records: RecordParts;
  rank: Int32Array;
  terms: number;
}

/** Records below which positions.bin is encoded in the build thread: starting a worker costs about
 * 40 ms, and a million records' positions take about 80 ms to encode. */
export const ENCODE_THREAD_MIN_RECORDS = 2_000_000;

/** Whether every array of `records` lies in shared memory: otherwise handing them over would copy them. */
const inSharedMemory = (records: RecordParts): boolean =>
  records.every(({ term, doc, tfs, positionEnds, positions }) => [term, doc, tfs, positionEnds, positions].every((a) => a.buffer instanceof SharedArrayBuffer));

/** positions.bin of `records` (encodePositionRuns) from a worker thread; `workerScript` defaults to the
 * compiled encode-worker.js beside this module. */
export function encodePositionsOnThread(
  records: RecordParts,
  rank: Int32Array,
  terms: number,
  workerScript: URL = new URL('./encode-worker.js', import.meta.url),
): Promise<EncodedFile> {
  const here = (): EncodedFile => encodePositionRuns(records, rank, terms);
  if (!inSharedMemory(records)) return new Promise((resolve) => resolve(here()));
  const job: EncodeJob = { records, rank, terms };
  const isFile = (answer: unknown): answer is EncodedFile =>
    typeof answer === 'object' && answer !== null && 'bytes' in answer && answer.bytes instanceof Uint8Array && 'ends' in answer && answer.ends instanceof Float64Array && answer.ends.length === terms + 1;
  return onWorkerOrHere(workerScript, job, isFile, here);
}
