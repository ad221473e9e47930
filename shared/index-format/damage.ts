// How a damaged generation is reported: at load (`serve` at start, an incremental `index`), one line
// naming the generation, the file, the fault and the command that rebuilds it; during a query, an
// INDEX_FORMAT error with the file and the fault, which the gateway answers with a 503 and /healthz
// reports, never a RangeError or a JSON error with its stack.

import { dirname } from 'node:path';
import { GleanerError } from '../errors.js';
import { shellWord } from '../shell-word.js';

const REBUILD = 'rebuild the index with `gleaner index --full`';

/**
 * A generation whose files do not read back as written (a disk fault, a file cut short or edited by
 * hand): one line that names the file, the fault and the cure, for `serve` at start (a reload keeps the
 * generation it has) and for an incremental `index`, which then builds from scratch.
 */
export function damagedIndexError(dir: string, file: string, why: string, cause?: unknown): GleanerError {
  // dir is DATA/index/GENERATION.
  const dataDir = dirname(dirname(dir));
  return new GleanerError('INDEX_FORMAT', `the index in ${dir} is damaged (${file}: ${why}): rebuild it with \`gleaner index --full --data ${shellWord(dataDir)}\``, { cause });
}

/** A query's read of an index file found damaged: `what` says where (the file, or how far it fell short). */
export function damagedReadError(what: string, cause?: unknown): GleanerError {
  return new GleanerError('INDEX_FORMAT', `an index file is damaged (${what}): ${REBUILD}`, { cause });
}

/** What `decode` makes of bytes a query read, or INDEX_FORMAT when they are not what was written (the
 * decoders' RangeError, JSON's SyntaxError); `file` is named in the message when given. Any other error
 * is a fault of the code, not of the file, and goes on as it is. */
export function decodedOrDamaged<T>(decode: () => T, file?: string): T {
  try {
    return decode();
  } catch (e) {
    if (!(e instanceof RangeError || e instanceof SyntaxError)) throw e;
    throw damagedReadError(file === undefined ? e.message : `${file}: ${e.message}`, e);
  }
}
