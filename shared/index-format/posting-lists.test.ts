// A term's postings read on their own must be exactly its slice of the index files, whatever the cache
// holds; a file cut short is an error a user can act on, not garbage postings.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { buildFixtureIndex, type FixtureDir } from '../../test/support/index-fixture.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { FIELD_COUNT, INDEX_FILES } from './index-format.js';
import { readCurrentGeneration, type IndexGeneration } from './index-read.js';
import { decodePositionsInto } from './positions.js';
import { PostingLists } from './posting-lists.js';

const WORDS = ['ash', 'birch', 'cedar', 'elm', 'fir', 'hazel', 'larch', 'maple', 'oak', 'pine', 'rowan', 'yew'];
const random = seededRandom(20261127);
const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
const pages = Array.from({ length: 80 }, (_, i) => ({ url: `http://trees.test/${i}`, title: text(2), headings: [text(3)], text: text(40 + i) }));

let fixture: FixtureDir;
let gen: IndexGeneration;
/** The files read whole, as the generation was read before lists were read a term at a time. */
let whole: { postings: Uint32Array; tfs: Uint8Array; positions: Uint8Array; positionOffsets: Uint32Array };

beforeAll(async () => {
  fixture = await buildFixtureIndex(pages);
  gen = await readCurrentGeneration(fixture.dataDir);
  const u32 = (b: Buffer) => new Uint32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  whole = {
    postings: u32(await readFile(join(gen.dir, INDEX_FILES.postings))),
    tfs: new Uint8Array(await readFile(join(gen.dir, INDEX_FILES.tfs))),
    positions: new Uint8Array(await readFile(join(gen.dir, INDEX_FILES.positions))),
    positionOffsets: u32(await readFile(join(gen.dir, INDEX_FILES.positionOffsets))),
  };
});
afterAll(async () => {
  gen.lists.close();
  await fixture.cleanup();
});

/** Checks term t against the whole files; returns how many positions it compared. */
function expectSlice(lists: PostingLists, t: number): number {
  let compared = 0;
  const from = gen.offsets[t]!;
  const to = gen.offsets[t + 1]!;
  const list = lists.list(t);
  expect(list.term).toBe(t);
  expect([...list.docs]).toEqual([...whole.postings.subarray(from, to)]);
  expect([...list.tfs]).toEqual([...whole.tfs.subarray(from * FIELD_COUNT, to * FIELD_COUNT)]);
  const positions = lists.positions(t);
  for (let i = 0; i < to - from; i++) {
    const a = new Int32Array(4096);
    const b = new Int32Array(4096);
    const n = decodePositionsInto(positions.bytes, positions.offsets[i]!, positions.offsets[i + 1]!, a);
    const m = decodePositionsInto(whole.positions, whole.positionOffsets[from + i]!, whole.positionOffsets[from + i + 1]!, b);
    expect([...a.subarray(0, n)]).toEqual([...b.subarray(0, m)]);
    compared += n;
  }
  return compared;
}

describe('posting lists read a term at a time', () => {
  it("give each term exactly its slice of the files, in any order, read again after the cache let it go", () => {
    expect(gen.lists.terms).toBeGreaterThan(WORDS.length);
    const order = [...Array(gen.lists.terms).keys()].sort(() => random() - 0.5);
    let compared = 0;
    for (const t of order) compared += expectSlice(gen.lists, t);
    expect(compared).toBeGreaterThan(pages.length * 40); // every body word has a position
    // A cache of a few bytes keeps nothing: every read goes to the files and must give the same.
    const uncached = new PostingLists(gen.dir, gen.offsets, { cacheMiB: 1e-6 });
    try {
      for (const t of order) expectSlice(uncached, t);
      for (const t of order.slice(0, 20)) expectSlice(uncached, t);
      expect(uncached.list(order[0]!)).not.toBe(uncached.list(order[0]!));
    } finally {
      uncached.close();
    }
    // A cache that holds about a third of the index lets the least recently used go as it reads.
    const third = (whole.postings.byteLength + whole.tfs.byteLength + whole.positions.byteLength + whole.positionOffsets.byteLength) / 3 / 2 ** 20;
    const some = new PostingLists(gen.dir, gen.offsets, { cacheMiB: third });
    try {
      for (const t of [...order, ...order.reverse()]) expectSlice(some, t);
      const recent = order[order.length - 1]!;
      expect(some.list(recent)).toBe(some.list(recent));
    } finally {
      some.close();
    }
    // The default cache keeps what it read: the same object again.
    expect(gen.lists.list(order[0]!)).toBe(gen.lists.list(order[0]!));
  });

  it('refuse a postings file cut short with a message that says to rebuild', async () => {
    const cut = new PostingLists(gen.dir, gen.offsets, { cacheMiB: 0 });
    try {
      const last = gen.lists.terms - 1;
      await truncate(join(gen.dir, INDEX_FILES.postings), gen.offsets[last]! * 4);
      expect(() => cut.list(last)).toThrow(/ends \d+ bytes early.*gleaner index --full/);
      expect(() => cut.list(0)).not.toThrow();
    } finally {
      cut.close();
    }
  });
});
