import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyzeBody } from './analyze.js';
import { boundFields, cutField, DEFAULT_FIELD_LIMITS } from './field-limits.js';
import { extractHtml } from './extract.js';

const analyze = (html: string) =>
  analyzeBody({ body: new TextEncoder().encode(html), contentType: 'text/html', contentTypeHeader: 'text/html; charset=utf-8', url: 'http://a.test/p', agent: 'gleaner', stripParams: [], xRobotsTag: [] }).extracted;

describe('short fields cut to their limits', () => {
  it('cuts a hostile page\'s 1.2 MB title, description, headings and anchor text, and keeps its body text', () => {
    const huge = 'title '.repeat(200_000);
    const e = analyze(`<title>${huge}</title><meta name="description" content="${huge}"><p>intro</p><h2 id="s">${'heading '.repeat(2000)}</h2><p>body words</p><h2 id="t">next</h2><p><a href="/x">${huge}</a></p>`);
    const max = DEFAULT_FIELD_LIMITS.maxFieldChars;
    expect(e.title.length).toBeLessThanOrEqual(max);
    expect(e.title.startsWith('title title')).toBe(true);
    expect(e.description.length).toBeLessThanOrEqual(max);
    expect(e.headings.every((h) => h.length <= max)).toBe(true);
    expect(e.sections?.[0]?.heading.length).toBeLessThanOrEqual(max);
    expect(e.links[0]!.text.length).toBeLessThanOrEqual(max);
    expect(e.text).toContain('body words');
  });
  it('keeps at most maxHeadings headings, in order', () => {
    const e = analyze(Array.from({ length: 3000 }, (_, i) => `<h3>Heading ${i}</h3>`).join(''));
    expect(e.headings).toHaveLength(DEFAULT_FIELD_LIMITS.maxHeadings);
    expect(e.headings[1999]).toBe('Heading 1999');
  });
  it('keeps at most maxSections sections, in order, then a mark where the first one cut began', () => {
    const e = analyze(Array.from({ length: 5000 }, (_, i) => `<h2 id="s${i}">Section ${i}</h2><p>text ${i}</p>`).join(''));
    expect(e.sections).toHaveLength(DEFAULT_FIELD_LIMITS.maxSections + 1);
    expect(e.sections![1999]).toMatchObject({ id: 's1999', heading: 'Section 1999' });
    // The last kept section ends at the mark; the text after it (whole) is no section's.
    const mark = e.sections![2000]!;
    expect(mark).toMatchObject({ id: '', heading: '' });
    expect(e.text.slice(e.sections![1999]!.start, mark.start)).toContain('text 1999');
    expect(e.text.slice(e.sections![1999]!.start, mark.start)).not.toContain('text 2000');
    expect(e.text.slice(mark.start)).toContain('text 4999');
  });
  it('keeps headings and section headings up to maxHeadingChars characters each, then a mark', () => {
    const long = (i: number) => `${String(i)} ${'made up words '.repeat(70)}`; // about 980 characters
    const e = analyze(Array.from({ length: 2000 }, (_, i) => `<h2 id="s${i}">${long(i)}</h2><p>text ${i}</p><h3>${long(i)}</h3>`).join(''));
    const chars = (texts: string[]) => texts.reduce((sum, t) => sum + t.length, 0);
    for (const kept of [e.headings, e.sections!.slice(0, -1).map((s) => s.heading)]) {
      expect(chars(kept)).toBeLessThanOrEqual(DEFAULT_FIELD_LIMITS.maxHeadingChars);
      expect(chars(kept)).toBeGreaterThan(DEFAULT_FIELD_LIMITS.maxHeadingChars - 1000);
    }
    expect(e.sections!.at(-1)).toMatchObject({ id: '', heading: '' });
    // The text after the mark (cut at maxTextChars) is no section's.
    expect(e.text.slice(e.sections!.at(-1)!.start)).toContain('text 300');
  });
  it('adds no mark when no section was cut', () => {
    const e = analyze(Array.from({ length: DEFAULT_FIELD_LIMITS.maxSections }, (_, i) => `<h2 id="s${i}">Section ${i}</h2><p>text ${i}</p>`).join(''));
    expect(e.sections).toHaveLength(DEFAULT_FIELD_LIMITS.maxSections);
    expect(e.sections!.every((s) => s.id !== '')).toBe(true);
  });
  it('leaves a page within the limits as it was (the same object)', () => {
    const e = extractHtml('<title>Fine</title><h1>Head</h1><p>text <a href="/a">link</a></p>', 'http://a.test/');
    expect(boundFields(e)).toBe(e);
  });
  it('cuts at a space near the limit, else at the limit, never inside a surrogate pair (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.integer({ min: 1, max: 200 }), (s, max) => {
        const cut = cutField(s, max);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(s.startsWith(cut)).toBe(true);
        if (s.length <= max) expect(cut).toBe(s);
        else expect(cut.length).toBeGreaterThanOrEqual(Math.floor(max * 0.9) - 1);
        expect(/[\ud800-\udbff]$/.test(cut)).toBe(false);
      }),
    );
  });
});
