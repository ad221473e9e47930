// A file of the right size with wrong bytes passes the checks at load when the damage lies in what a
// query reads a term or a passage at a time (postings.bin, stored.bin). The query that meets it fails
// with INDEX_FORMAT naming the fault (a 503 and /healthz "degraded" in the gateway), never with the
// RangeError or SyntaxError of the decoder, which the gateway answered with a 500 and its stack.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGleanerError } from '../../shared/errors.js';
import { currentGeneration, INDEX_FILES, readCurrentGeneration } from '../../shared/index-format/index.js';
import { buildFixtureIndex, type FixtureDir } from '../../test/support/index-fixture.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { parseQuery } from '../query/index.js';
import { openSearchEngine } from './index.js';

const random = seededRandom(2612);
const word = () => Array.from({ length: 3 + Math.floor(random() * 6) }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
// 40 pages of random words (about 60 KB of stored text, several chunks of stored.bin), all with
// "lantern", only the first 3 with "ferry".
const pages = Array.from({ length: 40 }, (_, i) => ({
  url: `http://site.test/${i}`,
  title: `Page ${i}`,
  text: `lantern ${i < 3 ? 'ferry ' : ''}${Array.from({ length: 250 }, word).join(' ')}`,
}));

let fixture: FixtureDir;
let gen: string;
let pristine: Map<string, Buffer>;
beforeAll(async () => {
  fixture = await buildFixtureIndex(pages);
  gen = (await currentGeneration(fixture.dataDir))!;
  pristine = new Map(await Promise.all([INDEX_FILES.postings, INDEX_FILES.stored].map(async (f) => [f, await readFile(join(gen, f))] as const)));
});
afterAll(() => fixture.cleanup());

async function restore(): Promise<void> {
  for (const [f, bytes] of pristine) await writeFile(join(gen, f), bytes);
}

/** What searching `q` throws on the current files, or undefined. */
async function searchFailure(q: string): Promise<unknown> {
  const engine = await openSearchEngine(fixture.dataDir, { preloadMiB: 0 });
  try {
    engine.search(parseQuery(q), { offset: 0, limit: 10 });
    return undefined;
  } catch (e) {
    return e;
  } finally {
    engine.close();
  }
}

describe('a query that reads damaged bytes', () => {
  it('fails with INDEX_FORMAT when a posting list names a document the index does not have', async () => {
    await restore();
    expect(await searchFailure('ferry')).toBeUndefined();
    const g = await readCurrentGeneration(fixture.dataDir);
    // Its term, as the analyzer made it (stemmed).
    const term = Array.from({ length: g.lists.terms }, (_, t) => t).find((t) => g.terms.terms.at(t)!.startsWith('ferr'))!;
    g.lists.close();
    expect(g.lists.docFreq(term)).toBe(3);
    // Its first document's gap, one byte (a document below 128), made 127: past the 40 documents.
    const postings = Buffer.from(pristine.get(INDEX_FILES.postings)!);
    postings[g.lists.termOffsets[term]!] = 0x7f;
    await writeFile(join(gen, INDEX_FILES.postings), postings);
    try {
      const e = await searchFailure('ferry');
      expect(isGleanerError(e) && e.code, String(e)).toBe('INDEX_FORMAT');
      expect((e as Error).message).toMatch(/^an index file is damaged \(postings\.bin: a term's postings name document \d+, of 40\): rebuild the index with `gleaner index --full`$/);
    } finally {
      await restore();
    }
  });

  it('fails with INDEX_FORMAT naming stored.bin when a chunk of stored text does not inflate', async () => {
    await restore();
    expect(await searchFailure('lantern')).toBeUndefined();
    const stored = Buffer.from(pristine.get(INDEX_FILES.stored)!);
    expect(stored.length).toBeGreaterThan(4096);
    stored.fill(0xa5, 64, stored.length - 64);
    await writeFile(join(gen, INDEX_FILES.stored), stored);
    try {
      const e = await searchFailure('lantern');
      expect(isGleanerError(e) && e.code, String(e)).toBe('INDEX_FORMAT');
      expect((e as Error).message).toMatch(/^an index file is damaged \(stored\.bin: chunk \d+ (does not inflate|inflates to \d+ bytes)/);
    } finally {
      await restore();
    }
  });
});
