import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTermDocs, decodeTermPositions, encodePositionRuns, encodePositions, FIELD_COUNT, FIELDS, isPhrasePairToken, phrasePairToken, positionOf } from '../shared/index-format/index.js';
import { isGleanerError } from '../shared/errors.js';
import { TermTranslation, type NumberedTerms } from './term-translation.js';
import { MAX_FORMS, PostingsBuilder, type PostingsLayout } from './postings.js';

/** Term t's postings as the searcher reads them back: documents, one field's frequencies (the first by
 * default), positions. */
function listOf(layout: PostingsLayout, t: number, field = 0): { docs: number[]; tfs: number[]; positions: number[][] } {
  const n = layout.offsets[t + 1]! - layout.offsets[t]!;
  const { termOffsets, postings, positions } = layout.lists;
  const terms = layout.terms.length;
  const { docs, frequencies } = decodeTermDocs(postings.subarray(termOffsets[t], termOffsets[t + 1]), n, 2 ** 32);
  const list = { docs, tfs: frequencies.decodeAll() };
  const at = decodeTermPositions(positions.subarray(termOffsets[terms + 1 + t], termOffsets[terms + 2 + t]), n);
  return {
    docs: [...list.docs],
    tfs: [...list.docs.keys()].map((p) => list.tfs[p * FIELD_COUNT + field]!),
    positions: [...list.docs.keys()].map((p) => [...at.bytes.subarray(at.offsets[p], at.offsets[p + 1])]),
  };
}

/** An analysis thread as the build sees it: one dictionary numbering its terms and words alike, and
 * its translation; `doc` gives a document's terms as a batch from it would (term-wire.ts BatchTerms). */
class ThreadStub {
  readonly translation = new TermTranslation();
  private readonly numbers = new Map<string, number>();
  private readonly strings: string[] = [];

  numberOf(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) {
      this.numbers.set(text, (n = this.strings.length));
      this.strings.push(text);
    }
    return n;
  }

  /** (term, word, sent with its batch only, other forms) per term of a document. */
  doc(terms: readonly (readonly [string, string, boolean, (readonly string[])?])[]): NumberedTerms {
    // A string sent with its batch is -1 - its place among them (term-wire.ts).
    const inline: string[] = [];
    const id = (text: string, sentInline: boolean) => (sentInline ? -inline.push(text) : this.numberOf(text));
    const numbered = terms.map(([t, w, sentInline, forms]) => ({ term: id(t, sentInline), word: id(w, sentInline), forms: forms?.map((f) => id(f, sentInline)) }));
    const text = (n: number) => (n >= 0 ? this.strings[n]! : inline[-1 - n]!);
    return {
      numbers: Int32Array.from(numbered, (x) => x.term),
      translation: this.translation,
      term: (s) => text(numbered[s]!.term),
      word: (s) => text(numbered[s]!.word),
      wordNumber: (s) => numbered[s]!.word,
      forms: numbered.map((x) => x.forms),
      text,
    };
  }
}

/** Adds one posting of `term` in `doc` with body frequency `tf` and positions bytes `positions`. */
function add(builder: PostingsBuilder, term: string, doc: number, tf: number, positions: number[]): void {
  const tfs = new Uint8Array(FIELD_COUNT);
  tfs[0] = tf;
  builder.add(builder.termId(term, term), doc, tfs, 0, Uint8Array.from(positions), 0, positions.length);
}

/** The encoded positions bytes of `positions` (shared/index-format positions.ts). */
function encoded(positions: number[]): Uint8Array {
  const out = { bytes: new Uint8Array(16) };
  return out.bytes.slice(0, encodePositions(positions, out, 0));
}

/** Adds one posting of `term` in `doc`, body frequency 1, with encoded positions `positions`. */
function addAt(builder: PostingsBuilder, term: string, doc: number, positions: Uint8Array): void {
  const tfs = new Uint8Array(FIELD_COUNT);
  tfs[FIELDS.indexOf('body')] = 1;
  builder.add(builder.termId(term, term), doc, tfs, 0, positions, 0, positions.length);
}

/** What `f` threw (undefined if nothing). */
function thrown(f: () => void): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('PostingsBuilder', () => {
  it('encodes postings term by term, terms in order and documents ascending, each with its positions', async () => {
    const builder = new PostingsBuilder();
    add(builder, 'zebra', 0, 2, [1, 2]);
    add(builder, 'apple', 0, 1, [3]);
    add(builder, 'zebra', 1, 1, [4]);
    const layout = await builder.finish();
    expect(layout.terms).toEqual(['apple', 'zebra']);
    expect([...layout.offsets]).toEqual([0, 1, 3]);
    expect(listOf(layout, 0)).toEqual({ docs: [0], tfs: [1], positions: [[3]] });
    expect(listOf(layout, 1)).toEqual({ docs: [0, 1], tfs: [2, 1], positions: [[1, 2], [4]] });
  });

  it('sizes its records by the documents added so far when postings come term by term, as an incremental build copies them', async () => {
    // 20,000 documents expected; each term's postings run over the first 100 in turn. Sized by the
    // last document added (0 at each term's start, where the first 100 records run out) the records asked
    // for 2.2 million entries.
    const builder = new PostingsBuilder(20_000, 100);
    for (let t = 0; t < 50; t++) for (let d = 0; d < 100; d++) add(builder, `t${String(t).padStart(2, '0')}`, d, 1, [d]);
    expect(builder.capacity).toBeLessThanOrEqual(8 * 5_000);
    expect(builder.capacity).toBeGreaterThanOrEqual(5_000);
    const layout = await builder.finish();
    expect(layout.terms).toHaveLength(50);
    expect(listOf(layout, 49).docs).toEqual(Array.from({ length: 100 }, (_, d) => d));
  });

  it('sizes its records by a sample of the documents, not by a few dense first pages', () => {
    // 100,000 documents expected, the first 10 with 2,000 postings each and the rest with 10 (a
    // crawl whose first pages are long ones). Projected from the first page, the records were sized
    // for 110 million. Now they double (to 64,000) until 1/32 of the documents (3,125) are in; the
    // next growth, at about 4,400 documents, projects their rate: about 1.6 million.
    const builder = new PostingsBuilder(100_000, 1_000);
    let doc = 0;
    const tfs = new Uint8Array(FIELD_COUNT).fill(1);
    const none = new Uint8Array(0);
    for (; doc < 10; doc++) for (let t = 0; t < 2_000; t++) builder.add(t, doc, tfs, 0, none, 0, 0);
    expect(builder.capacity).toBeLessThanOrEqual(2 * 20_000);
    for (; doc < 4_000; doc++) for (let t = 0; t < 10; t++) builder.add(t, doc, tfs, 0, none, 0, 0);
    expect(builder.capacity).toBe(64_000);
    for (; doc < 10_000; doc++) for (let t = 0; t < 10; t++) builder.add(t, doc, tfs, 0, none, 0, 0);
    expect(builder.capacity).toBeGreaterThanOrEqual(1_000_000);
    expect(builder.capacity).toBeLessThanOrEqual(2_000_000);
  });

  it('stops with a typed error, not a RangeError, past the most records its arrays can hold', () => {
    // Arrays of at most 10 * FIELD_COUNT elements: 10 records, then the error a user can read.
    const builder = new PostingsBuilder(1_000, 4, { maxArrayLength: 10 * FIELD_COUNT });
    for (let d = 0; d < 10; d++) add(builder, 'word', d, 1, []);
    expect(builder.capacity).toBe(10);
    const records = thrown(() => add(builder, 'word', 10, 1, []));
    expect(isGleanerError(records) && records.code).toBe('INDEX_TOO_LARGE');
    expect(String(records)).toMatch(/more than 10 postings, the most one index build can hold/);
    const positions = new PostingsBuilder(0, 4, { maxArrayLength: 64 });
    add(positions, 'word', 0, 1, Array.from({ length: 60 }, (_, i) => i));
    const bytes = thrown(() => add(positions, 'word', 1, 1, [1, 2, 3, 4, 5]));
    expect(isGleanerError(bytes) && bytes.code).toBe('INDEX_TOO_LARGE');
    expect(String(bytes)).toMatch(/more than 64 bytes of word positions/);
    // A document's postings at once: the same errors, before any of them is added.
    const whole = new PostingsBuilder(1_000, 4, { maxArrayLength: 10 * FIELD_COUNT });
    const ids = (n: number) => Int32Array.from({ length: n }, () => whole.termId('word', 'word'));
    whole.addDocument(ids(8), 0, new Uint8Array(8 * FIELD_COUNT), new Uint8Array(0), new Uint32Array(8));
    const past = thrown(() => whole.addDocument(ids(3), 1, new Uint8Array(3 * FIELD_COUNT), new Uint8Array(0), new Uint32Array(3)));
    expect(isGleanerError(past) && past.code).toBe('INDEX_TOO_LARGE');
    expect(whole.records).toBe(8);
    const wholeBytes = new PostingsBuilder(0, 4, { maxArrayLength: 64 });
    const tooMany = thrown(() => wholeBytes.addDocument(Int32Array.of(wholeBytes.termId('word', 'word')), 0, new Uint8Array(FIELD_COUNT), new Uint8Array(65), Uint32Array.of(65)));
    expect(String(tooMany)).toMatch(/more than 64 bytes of word positions/);
    // Past the 4 GiB a build holds whatever the Node (here made 32 bytes): the same typed error.
    const format = new PostingsBuilder(0, 4, { maxPositionBytes: 32 });
    add(format, 'word', 0, 1, Array.from({ length: 30 }, (_, i) => i));
    const beyond = thrown(() => add(format, 'word', 1, 1, [1, 2, 3]));
    expect(isGleanerError(beyond) && beyond.code).toBe('INDEX_TOO_LARGE');
    expect(String(beyond)).toMatch(/more than 32 bytes of word positions, the most one index build can hold: index fewer pages/);
    expect(format.records).toBe(1);
  });

  it('encodes any postings as they were added, whether its records were sized ahead or grown, a posting or a document at a time', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 9 }), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 })), { maxLength: 25 }), { maxLength: 120 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.boolean(),
        fc.boolean(),
        async (docs, expected, first, elsewhere, whole) => {
          const builder = new PostingsBuilder(expected, first);
          const want = new Map<string, { docs: number[]; tfs: number[]; positions: number[][] }>();
          docs.forEach((postings, d) => {
            const seen = new Set<number>();
            // The document's postings as its analysis lays them out, for addDocument.
            const ids: number[] = [];
            const tfs: number[] = [];
            const bytes: number[] = [];
            const ends: number[] = [];
            for (const [term, tf, positions] of postings) {
              if (seen.has(term)) continue;
              seen.add(term);
              const name = `t${String(term).padStart(2, '0')}`;
              if (whole) {
                ids.push(builder.termId(name, name));
                tfs.push(tf, ...new Array<number>(FIELD_COUNT - 1).fill(0));
                bytes.push(...positions);
                ends.push(bytes.length);
              } else add(builder, name, d, tf, positions);
              const w = want.get(name) ?? { docs: [], tfs: [], positions: [] };
              w.docs.push(d);
              w.tfs.push(tf);
              w.positions.push(positions);
              want.set(name, w);
            }
            if (whole) builder.addDocument(Int32Array.from(ids), d, Uint8Array.from(tfs), Uint8Array.from(bytes), Uint32Array.from(ends));
          });
          // positions.bin encoded apart (as on another thread) or with postings.bin: the same files.
          const layout = await builder.finish(elsewhere ? (records, rank, terms) => Promise.resolve(encodePositionRuns(records, rank, terms)) : undefined);
          expect(layout.terms).toEqual([...want.keys()].sort());
          layout.terms.forEach((term, t) => expect(listOf(layout, t)).toEqual(want.get(term)));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('adds the pairs of common words side by side as terms of their own, read back with the words whichever thread encodes positions', async () => {
    for (const elsewhere of [false, true]) {
      // Documents 0-5 hold "a b" (body places 0 and 1), 6-9 "b a"; "c" is in one document only.
      const builder = new PostingsBuilder(10, 4);
      const body = FIELDS.indexOf('body');
      const place = (p: number) => encoded([positionOf(body, p)]);
      for (let d = 0; d < 10; d++) {
        const [first, second] = d < 6 ? ['a', 'b'] : ['b', 'a'];
        addAt(builder, first, d, place(0));
        addAt(builder, second, d, place(1));
        if (d === 3) addAt(builder, 'c', d, place(2));
      }
      const before = builder.records;
      // Common: in at least 4 documents, at most 2 words.
      expect(builder.addPhrasePairs(10, 4, 2)).toBe(10);
      expect(builder.records).toBe(before + 10);
      const layout = await builder.finish(elsewhere ? (records, rank, terms) => Promise.resolve(encodePositionRuns(records, rank, terms)) : undefined);
      const ab = layout.terms.indexOf(phrasePairToken('a', 'b'));
      const ba = layout.terms.indexOf(phrasePairToken('b', 'a'));
      expect(layout.terms.filter(isPhrasePairToken)).toHaveLength(2);
      expect(listOf(layout, ab, body)).toEqual({ docs: [0, 1, 2, 3, 4, 5], tfs: [1, 1, 1, 1, 1, 1], positions: [[], [], [], [], [], []] });
      expect(listOf(layout, ba, body).docs).toEqual([6, 7, 8, 9]);
      // The words' own postings are as added, after the pairs' were.
      expect(listOf(layout, layout.terms.indexOf('c'), body)).toEqual({ docs: [3], tfs: [1], positions: [[...place(2)]] });
      expect(listOf(layout, layout.terms.indexOf('a'), body).docs).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  it('keeps pairs past the first parts of their records, each with its own frequency', async () => {
    // 100,000 documents of "a b c" (every seventh "a b x a b c"): 200,000 pair postings, three parts.
    const n = 100_000;
    const builder = new PostingsBuilder(n);
    const body = FIELDS.indexOf('body');
    const place = (p: number) => encoded([positionOf(body, p)]);
    for (let d = 0; d < n; d++) {
      const twice = d % 7 === 0;
      addAt(builder, 'a', d, twice ? encoded([positionOf(body, 0), positionOf(body, 3)]) : place(0));
      addAt(builder, 'b', d, twice ? encoded([positionOf(body, 1), positionOf(body, 4)]) : place(1));
      addAt(builder, 'c', d, place(twice ? 5 : 2));
      if (twice) addAt(builder, 'x', d, place(2));
    }
    const before = builder.records;
    builder.addPhrasePairs(n, 4, 3);
    expect(builder.records).toBe(before + 2 * n);
    const layout = await builder.finish();
    expect(layout.terms.filter(isPhrasePairToken)).toEqual([phrasePairToken('a', 'b'), phrasePairToken('b', 'c')].sort());
    const ab = listOf(layout, layout.terms.indexOf(phrasePairToken('a', 'b')), body);
    const bc = listOf(layout, layout.terms.indexOf(phrasePairToken('b', 'c')), body);
    const all = Array.from({ length: n }, (_, d) => d);
    expect(ab.docs).toEqual(all);
    expect(ab.tfs).toEqual(all.map((d) => (d % 7 === 0 ? 2 : 1)));
    expect(bc.docs).toEqual(all);
    expect(bc.tfs.every((tf) => tf === 1)).toBe(true);
  });

  it("sums each document's body frequencies, and counts the postings that have one", () => {
    const builder = new PostingsBuilder();
    const tfs = new Uint8Array(FIELD_COUNT);
    tfs[FIELDS.indexOf('body')] = 3;
    builder.add(builder.termId('a', 'a'), 0, tfs, 0, new Uint8Array(0), 0, 0);
    builder.add(builder.termId('b', 'b'), 0, tfs, 0, new Uint8Array(0), 0, 0);
    builder.add(builder.termId('a', 'a'), 2, new Uint8Array(FIELD_COUNT).fill(1), 0, new Uint8Array(0), 0, 0);
    builder.add(builder.termId('c', 'c'), 2, Uint8Array.from({ length: FIELD_COUNT }, (_, f) => (f === FIELDS.indexOf('body') ? 0 : 4)), 0, new Uint8Array(0), 0, 0);
    const { bodyFrequency, postingsWithBody } = builder.bodyFrequencies(3);
    expect([...bodyFrequency]).toEqual([6, 0, 1]);
    expect(postingsWithBody).toBe(3);
  });

  it('lets go of its postings once encoded: a build keeps its builder while it writes the index', async () => {
    const builder = new PostingsBuilder();
    add(builder, 'apple', 0, 1, [3]);
    expect((await builder.finish()).offsets[1]).toBe(1);
    const again = await builder.finish();
    expect([again.lists.postings.length, again.lists.positions.length, again.terms.length]).toEqual([0, 0, 0]);
  });
  it('gives a numbered term the id and surface-word counts its string would get, looking it up once', async () => {
    // (term, surface word, thread, sent with its batch only) per document; two threads number apart.
    const docs: [string, string, 0 | 1, boolean][] = [
      ['partit', 'partitions', 0, false],
      ['partit', 'partition', 1, false],
      ['tabl', 'table', 0, false],
      ['partit', 'partitioning', 0, false],
      ['partit', 'partition', 1, true],
      ['tabl', 'tables', 1, false],
      ['partit', 'partitions', 1, false],
    ];
    const byString = new PostingsBuilder();
    const byNumber = new PostingsBuilder();
    const threads = [new ThreadStub(), new ThreadStub()];
    const tfs = new Uint8Array(FIELD_COUNT).fill(1);
    docs.forEach(([term, word, thread, inline], d) => {
      const a = byString.termId(term, word);
      const b = byNumber.numberedTermId(threads[thread]!.doc([[term, word, inline]]), 0);
      expect(b).toBe(a);
      byString.add(a, d, tfs, 0, new Uint8Array(0), 0, 0);
      byNumber.add(b, d, tfs, 0, new Uint8Array(0), 0, 0);
    });
    const [t0, t1] = threads as [ThreadStub, ThreadStub];
    expect(t1.translation.terms.get(t1.numberOf('partit'))).toBe(t0.translation.terms.get(t0.numberOf('partit')));
    expect(t0.translation.terms.get(7)).toBe(-1);
    const [x, y] = [await byString.finish(), await byNumber.finish()];
    expect(y.words).toEqual(x.words);
    expect(y.forms).toEqual(x.forms);
    expect(x.words).toEqual(['partition', 'table']);
    expect(x.forms).toEqual(['partitions partitioning', 'tables']);
  });

  it('counts surface words as a plain count by string would, by string or by number, a word in two terms included', async () => {
    const term = fc.constantFrom('a', 'b', 'cd');
    const word = fc.constantFrom('a', 'ab', 'b', 'ba', 'cd', 'c', 'abc', 'x', 'xy', 'yx');
    // Per document: (term, word, thread, sent with its batch only, more forms of the term in it).
    const posting = fc.tuple(term, word, fc.integer({ min: 0, max: 1 }), fc.boolean(), fc.array(word, { maxLength: 2 }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uniqueArray(posting, { selector: (p) => p[0], maxLength: 3 }), { maxLength: 40 }), fc.boolean(), async (docs, numbered) => {
        const builder = new PostingsBuilder();
        const threads = [new ThreadStub(), new ThreadStub()];
        // The model: per term, documents per word in the order first met.
        const model = new Map<string, Map<string, number>>();
        const count = (t: string, w: string) => {
          const words = model.get(t) ?? new Map<string, number>();
          model.set(t, words.set(w, (words.get(w) ?? 0) + 1));
        };
        const tfs = new Uint8Array(FIELD_COUNT).fill(1);
        docs.forEach((postings, d) => {
          // A document's postings come from one thread, its terms distinct.
          // The forms of one document are distinct and not its word.
          const more = postings.map(([, w, , , forms]) => [...new Set(forms)].filter((f) => f !== w));
          const stub = threads[postings[0]?.[2] ?? 0]!.doc(postings.map(([t, w, , inline], s) => [t, w, inline, more[s]]));
          postings.forEach(([t, w], s) => {
            const id = numbered ? builder.numberedTermId(stub, s) : builder.termId(t, w);
            count(t, w);
            if (numbered) builder.addNumberedForms(id, stub, s);
            else builder.addForms(id, more[s]);
            for (const f of more[s]!) count(t, f);
            builder.add(id, d, tfs, 0, new Uint8Array(0), 0, 0);
          });
        });
        const layout = await builder.finish();
        const terms = [...model.keys()].sort();
        expect(layout.terms).toEqual(terms);
        terms.forEach((t, i) => {
          const words = [...model.get(t)!];
          // The first met of the shortest length shows; the others, most documents first, then by word.
          const shown = words.reduce((best, w) => (w[0].length < best[0].length ? w : best));
          const others = words.filter((w) => w !== shown).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
          expect(layout.words[i]).toBe(shown[0]);
          expect(layout.forms[i]).toBe(others.slice(0, MAX_FORMS).map(([w]) => w).join(' '));
        });
      }),
    );
  });
});
