import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStoredHeader, encodeStoredHeader, linkableSections, unpackSections } from '../../shared/index-format/index.js';
import { packedSectionColumns, sectionColumnsBytes, sectionsOf } from './section-columns.js';
import { isTermAt, shapeOf } from './sections.js';
import { joinHeadings } from './snippet.js';

// Any Unicode text (headings and ids are stored as UTF-8 with their lengths in characters), newlines too.
const text = (maxLength: number) => fc.string({ unit: fc.oneof(fc.constantFrom('\n', '"', '\\', 'é', 'ß', '語', '🦀'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength });
const section = fc.record(
  { id: text(12), heading: text(30), start: fc.nat({ max: 2 ** 40 }), term: fc.constant(true as const) },
  { requiredKeys: ['id', 'heading', 'start'] },
);

describe('a page sections kept as columns', () => {
  it('gives back the sections as the page had them, through its stored header, whatever their ids and headings hold', () => {
    fc.assert(
      fc.property(fc.array(section, { maxLength: 40 }), fc.option(text(20), { nil: undefined }), (sections, context) => {
        // As stored.bin holds them (shared/index-format stored-header.ts), and as the searcher reads them.
        const stored = decodeStoredHeader(encodeStoredHeader('en', sections, context));
        expect(stored.language).toBe('en');
        expect(stored.context).toBe(context);
        expect(unpackSections(stored.sections!)).toEqual(sections);
        const columns = packedSectionColumns(stored.sections!);
        expect(sectionsOf(columns)).toEqual(sections);
        // What choosing a section reads, made from the columns as from the objects (a last id left empty
        // marks where the crawler cut the sections: linkableSections).
        expect(columns.shape).toEqual(shapeOf(sections));
        expect(columns.shape.linkable).toBe(linkableSections(sections));
        sections.forEach((s, i) => expect(isTermAt(columns.shape, i)).toBe(s.term === true));
        // The headings joined are those the snippet's heading search reads (snippet.ts joinHeadings).
        expect(columns.headings).toEqual(joinHeadings(sections.map((s) => s.heading)));
      }),
    );
  });

  it('reads a page without sections, and refuses a head cut short', () => {
    expect(decodeStoredHeader(encodeStoredHeader('fr', undefined, 'Guide'))).toEqual({ language: 'fr', context: 'Guide' });
    expect(decodeStoredHeader(encodeStoredHeader('en', [], undefined)).sections?.starts).toHaveLength(0);
    const bytes = encodeStoredHeader('en', [{ id: 'a', heading: 'A', start: 300 }], undefined);
    expect(() => decodeStoredHeader(bytes.subarray(0, bytes.length - 1))).toThrow(RangeError);
  });

  it('takes a few objects and about the bytes of its text, however many sections', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: `impl-Trait-for-T${i}`, heading: `impl Trait for T${i}`, start: i * 100 }));
    const columns = packedSectionColumns(decodeStoredHeader(encodeStoredHeader('en', many, undefined)).sections!);
    expect(Object.keys(columns)).toHaveLength(6);
    const text = many.reduce((a, s) => a + s.id.length + 2 * s.heading.length, 0);
    expect(sectionColumnsBytes(columns)).toBeGreaterThan(2 * text);
    expect(sectionColumnsBytes(columns)).toBeLessThan(2 * text + 40 * many.length);
  });
});
