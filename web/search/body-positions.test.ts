// A term's body places are the run of its positions in the body field, shifted to start at 0: the same
// places as filtering every position by its field, and the first of them is firstBodyPosition's.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenize } from '../../shared/analysis/index.js';
import { decodePositionsInto, FIELD_SPAN, FIELDS, readCurrentGeneration, type IndexGeneration } from '../../shared/index-format/index.js';
import { buildFixtureIndex, type FixtureDir } from '../../test/support/index-fixture.js';
import { seededRandom as rng } from '../../test/support/seeded-random.js';
import { bodyPositions, firstBodyPosition } from './body-positions.js';
import { findPosting } from './find-posting.js';

const WORDS = ['river', 'stone', 'bridge', 'light', 'north', 'mill', 'road'];
const random = rng(20261203);
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
// Each word in the title, headings, body and the anchors of links to the page: positions in four fields.
const pages = Array.from({ length: 30 }, (_, i) => ({
  url: `http://p.test/${i}`,
  title: words(3),
  headings: [words(2)],
  text: words(i % 3 === 0 ? 0 : 40),
  links: [[`http://p.test/${(i + 1) % 30}`, words(2)] as [string, string]],
}));

/** Every position of `term` in `doc` by field, decoded plainly. */
function byField(gen: IndexGeneration, term: number, doc: number, field: number): number[] | undefined {
  const { docs } = gen.lists.list(term);
  const p = findPosting(docs, 0, docs.length, doc);
  if (p < 0) return undefined;
  const { bytes, from, to } = gen.lists.positions(term).locate(p, { bytes: new Uint8Array(0), from: 0, to: 0 });
  const all = new Int32Array(to - from);
  const n = decodePositionsInto(bytes, from, to, all);
  return [...all.subarray(0, n)].filter((x) => Math.floor(x / FIELD_SPAN) === field).map((x) => x - field * FIELD_SPAN);
}

describe('body positions', () => {
  let fixture: FixtureDir | undefined;
  let gen: IndexGeneration | undefined;
  beforeAll(async () => {
    fixture = await buildFixtureIndex(pages);
    gen = await readCurrentGeneration(fixture.dataDir);
  });
  afterAll(async () => {
    gen?.lists.close();
    await fixture?.cleanup();
  });

  it('are the body field\'s positions of every page and word, and the first is firstBodyPosition', () => {
    const g = gen!;
    const body = FIELDS.indexOf('body');
    let placed = 0;
    for (let doc = 0; doc < g.docs.url.length; doc++) {
      for (const word of WORDS) {
        const term = g.terms.terms.indexOf(tokenize(word)[0]!);
        expect(term, word).toBeGreaterThanOrEqual(0);
        const want = byField(g, term, doc, body);
        const got = bodyPositions(g, term, doc);
        if (want === undefined || want.length === 0) expect(got === undefined || got.length === 0, `${word} in ${doc}`).toBe(true);
        else expect(got && [...got], `${word} in ${doc}`).toEqual(want);
        expect(firstBodyPosition(g, term, doc)).toBe(want?.[0] ?? -1);
        placed += want?.length ?? 0;
      }
    }
    expect(placed).toBeGreaterThan(400); // the words stand in the bodies: the test is not vacuous
  });
});
