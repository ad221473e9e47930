import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { numberTokens } from '../shared/analysis/index.js';
import { analyzeDoc, type AnalyzedDoc } from './analyze-doc.js';
import { asAnalyzed } from '../test/support/analyses.js';
import { batchTransfer, SAME_AS_TERM, TermPacker, TermUnpacker, type PackedBatch, type UnpackedDoc } from './term-wire.js';

const doc = (body: string, title = 'A page') => analyzeDoc({ url: 'http://site.test/p', title, headings: [], body, anchor: [], language: 'en' });
/** The batch as the other thread gets it: cloned, its typed arrays' buffers moved (batchTransfer). The
 * packer's batch is unusable after: a buffer moved is empty where it was. */
function sentOver(batch: PackedBatch): PackedBatch {
  const buffers = batchTransfer(batch);
  const arrived = structuredClone(batch, { transfer: buffers });
  expect(buffers.every((b) => b.byteLength === 0)).toBe(true);
  return arrived;
}
/** The analyses as unpacked on the other side, their terms and words as strings, without the numbers
 * they came with (checked apart). */
const unpacked = (unpacker: TermUnpacker, batch: PackedBatch): AnalyzedDoc[] => unpacker.unpack(sentOver(batch)).map(asAnalyzed);
/** The analyses as the packer is given them, without the tokenizer's numbers, which are not sent. */
const sent = (analysed: AnalyzedDoc[]): AnalyzedDoc[] => analysed.map(({ tokenNumbers: _, ...a }) => a);

// Each test says whether the tokenizer numbers its words (as in a worker) or not (as in the build thread).
afterEach(() => numberTokens(undefined));

/** A packer and unpacker; with `numbered`, the tokenizer numbers its words in the packer's dictionary
 * from now on, as in an analysis worker. */
function wire(numbered: boolean, maxStrings?: number): { packer: TermPacker; unpacker: TermUnpacker } {
  const packer = new TermPacker(maxStrings);
  numberTokens(numbered ? packer.numbers : undefined);
  return { packer, unpacker: new TermUnpacker() };
}

describe.each([
  ['numbered by the tokenizer', true],
  ['numbered by the packer', false],
])('terms sent by number, %s', (_, numbered) => {
  it('gives back each batch as analysed, every string sent once per worker', () => {
    const { packer, unpacker } = wire(numbered);
    const first = [doc('partitioning a table partitions rows'), doc('vacuum the table')];
    const second = [doc('partitioned tables and vacuum', 'Partitions')];
    const a = packer.pack(first);
    const b = packer.pack(second);
    // "table" and "vacuum" came with the first batch: the second sends only what is new to it.
    expect(a.newStrings).toContain('tabl');
    expect(b.newStrings).not.toContain('tabl');
    expect(b.newStrings).not.toContain('vacuum');
    expect([...a.newStrings, ...b.newStrings]).toEqual(expect.arrayContaining([...first, ...second].flatMap((d) => [...d.terms, ...d.words])));
    expect(new Set([...a.newStrings, ...b.newStrings]).size).toBe(a.newStrings.length + b.newStrings.length);
    expect(unpacked(unpacker, a)).toEqual(sent(first));
    expect(unpacked(unpacker, b)).toEqual(sent(second));
  });

  it('sends a word that is its term itself as the term, and gives it back', () => {
    const { packer, unpacker } = wire(numbered);
    const analysed = [doc('vacuum the tables', 'vacuum')];
    const batch = packer.pack(analysed);
    // "vacuum" and "the" stem to themselves: only "tables" (term "tabl") is a word apart.
    const apart = analysed[0]!.words.filter((w, i) => w !== analysed[0]!.terms[i]);
    expect(apart).toEqual(['tables']);
    expect(batch.wordIds.filter((n) => n !== SAME_AS_TERM).length).toBe(1);
    expect(batch.newStrings.filter((s) => s === 'tables' || s === 'vacuum')).toEqual(['vacuum', 'tables']);
    const [back] = unpacker.unpack(batch);
    expect(asAnalyzed(back!).words).toEqual(analysed[0]!.words);
  });

  it('refuses a number its worker never sent, rather than give a wrong term', () => {
    const { packer } = wire(numbered);
    packer.pack([doc('one two three')]);
    // The first batch is lost on the way: the second's known numbers mean nothing here.
    const later = packer.pack([doc('two three four')]);
    expect(() => new TermUnpacker().unpack(later)).toThrow(RangeError);
  });

  it('refuses a form numbered past what its worker sent', () => {
    const { packer } = wire(numbered);
    const batch = packer.pack([doc('partitioning partitions partition')]);
    const withForms = batch.docs[0]!.forms.findIndex((list) => list !== undefined);
    expect(withForms).toBeGreaterThanOrEqual(0);
    expect(() => new TermUnpacker().unpack(structuredClone(batch))).not.toThrow();
    batch.docs[0]!.forms[withForms] = [batch.newStrings.length + 5];
    expect(() => new TermUnpacker().unpack(batch)).toThrow(RangeError);
  });

  it('past a full dictionary, sends new strings with their batch, and still gives back each batch whole', () => {
    const { packer, unpacker } = wire(numbered, 3);
    const first = [doc('alpha beta gamma delta', '')];
    const second = [doc('delta epsilon alpha', '')];
    const a = packer.pack(first);
    const b = packer.pack(second);
    expect(a.newStrings).toEqual(['alpha', 'beta', 'gamma']);
    expect(a.inline).toContain('delta');
    expect(b.newStrings).toEqual([]);
    expect(b.inline).toEqual(expect.arrayContaining(['delta', 'epsilon']));
    expect(b.inline).not.toContain('alpha');
    // A word that is its term's own string is sent once, as the term.
    for (const batch of [a, b]) expect(new Set(batch.inline).size).toBe(batch.inline.length);
    expect(unpacked(unpacker, a)).toEqual(sent(first));
    expect(unpacked(unpacker, b)).toEqual(sent(second));
  });

  it('round-trips any batches of documents in order', () => {
    const word = fc.constantFrom('parse', 'parsing', 'parsed', 'HashMap', 'std::vec::Vec', 'données', 'donnees', '日本語', 'x86_64', 'the', 'e-mail', 'c++');
    const body = fc.array(word, { minLength: 0, maxLength: 30 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(fc.array(body, { maxLength: 4 }), { maxLength: 5 }), fc.integer({ min: 0, max: 12 }), (bodies, maxStrings) => {
        const { packer, unpacker } = wire(numbered, maxStrings);
        for (const batch of bodies) {
          const analysed: AnalyzedDoc[] = batch.map((b) => doc(b, b.slice(0, 20)));
          expect(unpacked(unpacker, packer.pack(analysed))).toEqual(sent(analysed));
        }
      }),
    );
  });

  it('gives each word and form the number its string has as a term or a word, the same in every batch, < 0 for one sent inline', () => {
    const word = fc.constantFrom('parse', 'parsing', 'parsed', 'parses', 'HashMap', 'données', 'donnees', 'the', 'e-mail');
    const body = fc.array(word, { maxLength: 20 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(fc.array(body, { maxLength: 4 }), { maxLength: 5 }), fc.integer({ min: 0, max: 8 }), (bodies, maxStrings) => {
        const { packer, unpacker } = wire(numbered, maxStrings);
        const named = new Map<number, string>();
        const same = (n: number, text: string) => {
          if (n < 0) return;
          expect(named.get(n) ?? text).toBe(text);
          named.set(n, text);
        };
        let inline = 0;
        for (const batch of bodies) {
          for (const d of unpacker.unpack(sentOver(packer.pack(batch.map((b) => doc(b, '')))))) {
            const { terms, words, forms } = asAnalyzed(d);
            d.numbered.forms.forEach((list, s) => list?.forEach((n, k) => same(n, forms[s]![k]!)));
            terms.forEach((t, s) => {
              same(d.numbered.numbers[s]!, t);
              same(d.numbered.wordNumber(s), words[s]!);
              if (d.numbered.wordNumber(s) < 0) inline++;
            });
          }
        }
        // Distinct numbers, distinct strings.
        expect(new Set(named.values()).size).toBe(named.size);
        // A table that keeps no string numbers none.
        if (maxStrings === 0) expect(named.size).toBe(0);
        if (maxStrings === 0 && bodies.flat().some((b) => b !== '')) expect(inline).toBeGreaterThan(0);
      }),
    );
  });

  it('gives each term its worker number, the same for the same term in every batch, < 0 for one sent inline', () => {
    const { packer, unpacker } = wire(numbered, 2);
    const [a] = unpacker.unpack(packer.pack([doc('alpha beta gamma', '')]));
    const [b] = unpacker.unpack(packer.pack([doc('gamma beta alpha', '')]));
    const numberOf = (d: UnpackedDoc, term: string) => d.numbered.numbers[asAnalyzed(d).terms.indexOf(term)];
    expect(numberOf(a!, 'alpha')).toBe(numberOf(b!, 'alpha'));
    expect(numberOf(a!, 'beta')).toBe(numberOf(b!, 'beta'));
    expect(numberOf(a!, 'alpha')).not.toBe(numberOf(b!, 'beta'));
    expect(numberOf(a!, 'gamma')).toBeLessThan(0);
    expect(b!.numbered.translation).toBe(a!.numbered.translation);
  });
});

describe('the tokenizer numbering its words', () => {
  it('analyses every document as it does without numbers, however full its table', () => {
    const word = fc.constantFrom('parse', 'Parsing', 'parsed', 'HashMap', 'std::vec::Vec', 'données', 'donnees', '日本語', 'x86_64', 'the', 'e-mail', 'c++', 'EXTENDED_GLOB', 'straße');
    const text = fc.array(word, { maxLength: 25 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 20 }), (pages, maxStrings) => {
        numberTokens(undefined);
        const plain = pages.map(([body, title]) => doc(body, title));
        const { packer } = wire(true, maxStrings);
        const numbered = pages.map(([body, title]) => doc(body, title));
        expect(sent(numbered)).toEqual(plain);
        // Every term the table has a number for came with it, and equal numbers are equal strings.
        for (const d of numbered) {
          d.terms.forEach((t, i) => expect(d.tokenNumbers!.terms[i]).toBe(packer.numbers.strings.indexOf(t)));
          d.words.forEach((w, i) => expect(d.tokenNumbers!.words[i]).toBe(packer.numbers.strings.indexOf(w)));
        }
      }),
    );
  });
});
