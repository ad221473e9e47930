// A term's postings read on their own must hold what the pages say: each page that has the word, with
// its count in the body and a body position for each; the same whatever the cache holds. A file cut
// short is an error a user can act on, not garbage postings.

import { beforeAll, describe, expect, it } from 'vitest';
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { analyze } from '../analysis/index.js';
import { isGleanerError } from '../errors.js';
import { fixtureGeneration } from '../../test/support/fixture-generation.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { FIELD_COUNT, FIELDS, INDEX_FILES } from './index-format.js';
import type { IndexGeneration } from './index-read.js';
import { decodePositionsInto, fieldOfPosition } from './positions.js';
import { PostingLists } from './posting-lists.js';

const WORDS = ['ash', 'birch', 'cedar', 'elm', 'fir', 'hazel', 'larch', 'maple', 'oak', 'pine', 'rowan', 'yew'];
const random = seededRandom(20261127);
const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
// Up to 600 words a page: counts and positions past one byte, lists past one block of anything.
const pages = Array.from({ length: 80 }, (_, i) => ({ url: `http://trees.test/${i}`, title: text(2), headings: [text(3)], text: text(40 + ((i * 53) % 560)) }));
const BODY = FIELDS.indexOf('body');

const generation = fixtureGeneration(pages);
let gen: IndexGeneration;
beforeAll(() => {
  gen = generation();
});

const termOf = (token: string): number => gen.terms.terms.indexOf(token);

/** Checks every page's body words against `lists`; returns how many postings it checked. */
function expectPages(lists: PostingLists, order: readonly number[]): number {
  let checked = 0;
  const places = new Int32Array(1 << 12);
  const range = { bytes: new Uint8Array(0), from: 0, to: 0 };
  const one = new Uint8Array(FIELD_COUNT);
  for (const i of order) {
    const doc = gen.docs.url.indexOf(pages[i]!.url);
    const counts = new Map<string, number>();
    for (const { token } of analyze(pages[i]!.text, 'en')) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const [token, count] of counts) {
      const term = termOf(token);
      const list = lists.list(term);
      expect(list.term).toBe(term);
      expect(list.docs.length).toBe(lists.docFreq(term));
      const p = list.docs.indexOf(doc);
      expect(p, `${token} in page ${i}`).toBeGreaterThanOrEqual(0);
      // One posting's frequencies, read before or after the list's are decoded whole: the same.
      list.frequencies(p, one);
      expect(one[BODY]).toBe(Math.min(count, 255));
      expect(list.tfs[p * FIELD_COUNT + BODY]).toBe(Math.min(count, 255));
      expect([...list.tfs.subarray(p * FIELD_COUNT, (p + 1) * FIELD_COUNT)]).toEqual([...one]);
      const { bytes, from, to } = lists.positions(term).locate(p, range);
      const n = decodePositionsInto(bytes, from, to, places);
      expect(places.subarray(0, n).filter((x) => fieldOfPosition(x) === BODY).length).toBe(count);
      checked++;
    }
  }
  for (let t = 0; t < lists.terms; t++) {
    const docs = lists.list(t).docs;
    for (let k = 1; k < docs.length; k++) expect(docs[k]).toBeGreaterThan(docs[k - 1]!);
    expect(docs[docs.length - 1]).toBeLessThan(gen.docs.url.length);
  }
  return checked;
}

/** Every posting's positions located through `lists` are those its whole positions hold. */
function expectSamePositions(lists: PostingLists): void {
  const range = { bytes: new Uint8Array(0), from: 0, to: 0 };
  let crossing = 0;
  // A view handed out stays what it was while later reads evict its block.
  const held = lists.positions(0).locate(0, { bytes: new Uint8Array(0), from: 0, to: 0 });
  const heldBytes = held.bytes.slice(held.from, held.to);
  for (let t = 0; t < lists.terms; t++) {
    const whole = gen.lists.allPositions(t);
    const positions = lists.positions(t);
    for (let p = 0; p < lists.docFreq(t); p++) {
      const { bytes, from, to } = positions.locate(p, range);
      expect(bytes.subarray(from, to)).toEqual(whole.bytes.subarray(whole.offsets[p], whole.offsets[p + 1]));
      if (to > from && from === 0 && to === bytes.length) crossing++;
    }
  }
  expect(crossing).toBeGreaterThan(0);
  expect(held.bytes.subarray(held.from, held.to)).toEqual(heldBytes);
}

describe('posting lists read a term at a time', () => {
  it('hold every page with its words, counts and positions, whatever the cache keeps', () => {
    const order = [...pages.keys()].sort(() => random() - 0.5);
    expect(expectPages(gen.lists, order)).toBeGreaterThan(pages.length * 10);
    // A cache of a few bytes keeps nothing: every read goes to the files and must give the same.
    for (const cacheMiB of [1e-6, 0.05]) {
      const lists = new PostingLists(gen.dir, gen.offsets, gen.lists.termOffsets, gen.manifest.documents, { cacheMiB });
      try {
        expectPages(lists, order);
        expectPages(lists, [...order].reverse());
      } finally {
        lists.close();
      }
    }
    // Positions read posting by posting (every term, with blocks smaller than some postings' positions,
    // so ranges fall inside a block, across two and past one) give the same as positions read whole.
    for (const positionBlocks of [{ blockBytes: 64, cacheMiB: 1 }, { blockBytes: 256, cacheMiB: 0.002 }, { blockBytes: 16, cacheMiB: 0 }]) {
      const lists = new PostingLists(gen.dir, gen.offsets, gen.lists.termOffsets, gen.manifest.documents, { cacheMiB: 1, wholePositionBytes: 0, positionBlocks });
      try {
        expectPages(lists, order);
        expectSamePositions(lists);
        expect(lists.positionBlocksMiB).toBeLessThanOrEqual(positionBlocks.cacheMiB + positionBlocks.blockBytes / 2 ** 20);
      } finally {
        lists.close();
      }
    }
    // The default cache keeps what it read: the same object again.
    expect(gen.lists.list(0)).toBe(gen.lists.list(0));
  });

  it('count a list\'s frequencies in the cache once they are decoded whole', () => {
    const lists = new PostingLists(gen.dir, gen.offsets, gen.lists.termOffsets, gen.manifest.documents);
    try {
      const term = termOf('oak');
      const list = lists.list(term);
      const read = lists.cachedMiB;
      expect(read).toBeGreaterThan(0);
      expect(list.tfs.length).toBe(list.docs.length * FIELD_COUNT);
      expect((lists.cachedMiB - read) * 2 ** 20).toBeCloseTo(list.docs.length * FIELD_COUNT, 3);
      // Read again, nothing more.
      expect(lists.list(term).tfs).toBe(list.tfs);
      expect((lists.cachedMiB - read) * 2 ** 20).toBeCloseTo(list.docs.length * FIELD_COUNT, 3);
    } finally {
      lists.close();
    }
  });

  it('refuse a postings file cut short with a message that says to rebuild', async () => {
    const cut = new PostingLists(gen.dir, gen.offsets, gen.lists.termOffsets, gen.manifest.documents, { cacheMiB: 0 });
    try {
      const last = gen.lists.terms - 1;
      await truncate(join(gen.dir, INDEX_FILES.postings), gen.lists.termOffsets[last]! + 1);
      let error: unknown;
      try {
        cut.list(last);
      } catch (e) {
        error = e;
      }
      expect(isGleanerError(error) && error.code === 'INDEX_FORMAT').toBe(true);
      expect((error as Error).message).toMatch(/gleaner index --full/);
      expect(() => cut.list(0)).not.toThrow();
    } finally {
      cut.close();
    }
    expect(() => cut.list(0)).toThrow(/after their index generation was closed/);
  });

  it('refuse positions cut short, read whole or posting by posting', async () => {
    const T = gen.lists.terms;
    const positionBytes = (t: number) => gen.lists.termOffsets[T + 2 + t]! - gen.lists.termOffsets[T + 1 + t]!;
    // The last term with positions of some length (added tokens have none).
    let last = T - 1;
    while (positionBytes(last) < 16) last--;
    const range = { bytes: new Uint8Array(0), from: 0, to: 0 };
    for (const wholePositionBytes of [Infinity, 0]) {
      const cut = new PostingLists(gen.dir, gen.offsets, gen.lists.termOffsets, gen.manifest.documents, { cacheMiB: 0, wholePositionBytes });
      try {
        // Cut inside the last term's positions, after its lengths: a whole read fails at once, a
        // posting by posting one when it reaches the missing bytes.
        await truncate(join(gen.dir, INDEX_FILES.positions), gen.lists.termOffsets[T + 1 + last]! + Math.floor(positionBytes(last) / 2));
        let error: unknown;
        try {
          const positions = cut.positions(last);
          for (let p = 0; p < cut.docFreq(last); p++) positions.locate(p, range);
        } catch (e) {
          error = e;
        }
        expect(isGleanerError(error) && error.code === 'INDEX_FORMAT', `${wholePositionBytes}: ${String(error)}`).toBe(true);
        expect((error as Error).message).toMatch(/gleaner index --full/);
      } finally {
        cut.close();
      }
    }
  });
});
