import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packSections, storedHeaderJson, unpackSections, type StoredHeader } from '../../shared/index-format/index.js';
import { packedSectionColumns, sectionColumnsBytes, sectionsOf } from './section-columns.js';
import { joinHeadings } from './snippet.js';

const section = fc.record(
  { id: fc.string({ maxLength: 12 }), heading: fc.string({ maxLength: 30 }), start: fc.nat(), term: fc.constant(true as const) },
  { requiredKeys: ['id', 'heading', 'start'] },
);

describe('a page sections kept as columns', () => {
  it('gives back the sections as the page had them, through its stored header, whatever their ids and headings hold', () => {
    fc.assert(
      fc.property(fc.array(section, { maxLength: 40 }), fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), (sections, context) => {
        // As stored.bin holds them (shared/index-format stored-header.ts), and as the searcher reads them.
        const stored = JSON.parse(storedHeaderJson('en', sections, context)) as StoredHeader;
        expect(stored.language).toBe('en');
        expect(stored.context).toBe(context);
        expect(unpackSections(stored.sections!)).toEqual(sections);
        const columns = packedSectionColumns(stored.sections!);
        expect(sectionsOf(columns)).toEqual(sections);
        // The headings joined are those the snippet's heading search reads (snippet.ts joinHeadings).
        expect(columns.headings).toEqual(joinHeadings(sections.map((s) => s.heading)));
      }),
    );
  });

  it('takes a few objects and about the bytes of its text, however many sections', () => {
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: `impl-Trait-for-T${i}`, heading: `impl Trait for T${i}`, start: i * 100 }));
    const columns = packedSectionColumns(packSections(many));
    expect(Object.keys(columns)).toHaveLength(5);
    const text = many.reduce((a, s) => a + s.id.length + 2 * s.heading.length, 0);
    expect(sectionColumnsBytes(columns)).toBeGreaterThan(2 * text);
    expect(sectionColumnsBytes(columns)).toBeLessThan(2 * text + 40 * many.length);
  });
});
