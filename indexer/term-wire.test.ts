import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeDoc, type AnalyzedDoc } from './analyze-doc.js';
import { SAME_AS_TERM, TermPacker, TermUnpacker, type PackedBatch } from './term-wire.js';

const doc = (body: string, title = 'A page') => analyzeDoc({ url: 'http://site.test/p', title, headings: [], body, anchor: [], language: 'en' });
/** The analyses as unpacked, without the numbers they came with (checked apart). */
const unpacked = (unpacker: TermUnpacker, batch: PackedBatch): AnalyzedDoc[] => unpacker.unpack(batch).map(({ numbered: _, ...a }) => a);

describe('terms sent by number', () => {
  it('gives back each batch as analysed, every term and word sent once per worker', () => {
    const packer = new TermPacker();
    const unpacker = new TermUnpacker();
    const first = [doc('partitioning a table partitions rows'), doc('vacuum the table')];
    const second = [doc('partitioned tables and vacuum', 'Partitions')];
    const a = packer.pack(first);
    const b = packer.pack(second);
    // "table" and "vacuum" came with the first batch: the second sends only what is new to it.
    expect(a.newTerms).toContain('tabl');
    expect(b.newTerms).not.toContain('tabl');
    expect(b.newTerms).not.toContain('vacuum');
    expect(new Set([...a.newTerms, ...b.newTerms]).size).toBe(a.newTerms.length + b.newTerms.length);
    expect(unpacked(unpacker, a)).toEqual(first);
    expect(unpacked(unpacker, b)).toEqual(second);
  });

  it('sends no word that is its term itself, and gives it back as the term', () => {
    const packer = new TermPacker();
    const unpacker = new TermUnpacker();
    const analysed = [doc('vacuum the tables', 'vacuum')];
    const batch = packer.pack(analysed);
    // "vacuum" and "the" stem to themselves: only "tables" (term "tabl") is a word apart.
    expect(batch.newWords).toEqual(['tables']);
    expect(batch.docs[0]!.wordIds.filter((n) => n === SAME_AS_TERM).length).toBe(analysed[0]!.words.filter((w, i) => w === analysed[0]!.terms[i]).length);
    const [back] = unpacker.unpack(batch);
    expect(back!.words).toEqual(analysed[0]!.words);
  });

  it('refuses a number its worker never sent, rather than give a wrong term', () => {
    const packer = new TermPacker();
    packer.pack([doc('one two three')]);
    // The first batch is lost on the way: the second's known numbers mean nothing here.
    const later = packer.pack([doc('two three four')]);
    expect(() => new TermUnpacker().unpack(later)).toThrow(RangeError);
  });

  it('past a full dictionary, sends new strings with their batch, and still gives back each batch whole', () => {
    const packer = new TermPacker(3);
    const unpacker = new TermUnpacker();
    const first = [doc('alpha beta gamma delta', '')];
    const second = [doc('delta epsilon alpha', '')];
    const a = packer.pack(first);
    const b = packer.pack(second);
    expect(a.newTerms).toEqual(['alpha', 'beta', 'gamma']);
    expect(a.inline).toContain('delta');
    expect(b.newTerms).toEqual([]);
    expect(b.inline).toEqual(expect.arrayContaining(['delta', 'epsilon']));
    expect(b.inline).not.toContain('alpha');
    expect(unpacked(unpacker, a)).toEqual(first);
    expect(unpacked(unpacker, b)).toEqual(second);
  });

  it('round-trips any batches of documents in order', () => {
    const word = fc.constantFrom('parse', 'parsing', 'parsed', 'HashMap', 'std::vec::Vec', 'données', 'donnees', '日本語', 'x86_64', 'the', 'e-mail');
    const body = fc.array(word, { minLength: 0, maxLength: 30 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(fc.array(body, { maxLength: 4 }), { maxLength: 5 }), fc.integer({ min: 0, max: 12 }), (bodies, maxStrings) => {
        const packer = new TermPacker(maxStrings);
        const unpacker = new TermUnpacker();
        for (const batch of bodies) {
          const analysed: AnalyzedDoc[] = batch.map((b) => doc(b));
          expect(unpacked(unpacker, packer.pack(analysed))).toEqual(analysed);
        }
      }),
    );
  });

  it('gives each term its worker number, the same for the same term in every batch, < 0 for one sent inline', () => {
    const packer = new TermPacker(2);
    const unpacker = new TermUnpacker();
    const [a] = unpacker.unpack(packer.pack([doc('alpha beta gamma', '')]));
    const [b] = unpacker.unpack(packer.pack([doc('gamma beta alpha', '')]));
    const numberOf = (d: AnalyzedDoc, term: string) => d.numbered!.numbers[d.terms.indexOf(term)];
    expect(numberOf(a!, 'alpha')).toBe(numberOf(b!, 'alpha'));
    expect(numberOf(a!, 'beta')).toBe(numberOf(b!, 'beta'));
    expect(numberOf(a!, 'alpha')).not.toBe(numberOf(a!, 'beta'));
    expect(numberOf(a!, 'gamma')).toBeLessThan(0);
    expect(b!.numbered!.translation).toBe(a!.numbered!.translation);
  });
});
