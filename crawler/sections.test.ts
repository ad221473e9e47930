import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { collapseWhitespace, extractHtml } from './extract.js';
import { joinWithSections } from './sections.js';

const PAGE = 'http://example.test/doc.html';
const ex = (html: string, maxTextChars?: number) => extractHtml(html, PAGE, maxTextChars === undefined ? {} : { maxTextChars });

/** The text from each section's start: what a result linking to `#id` shows first. */
const startsWith = (html: string) => {
  const e = ex(html);
  return (e.sections ?? []).map((s) => ({ id: s.id, heading: s.heading, at: e.text.slice(s.start, s.start + s.heading.length + 8) }));
};

describe('sections at linkable headings', () => {
  it('splits at headings with an id, each start pointing at its heading in the text', () => {
    const html = '<h1 id="top">Guide</h1><p>Intro  text.</p><h2 id="install">Install\n it</h2><p>Run make.</p><h3 id="deps">Deps</h3><p>None.</p>';
    expect(startsWith(html)).toEqual([
      { id: 'top', heading: 'Guide', at: 'Guide Intro t' },
      { id: 'install', heading: 'Install it', at: 'Install it Run mak' },
      { id: 'deps', heading: 'Deps', at: 'Deps None.' },
    ]);
  });

  it('takes the id of a wrapper opened right before the heading (Sphinx section, DocBook div, rustdoc)', () => {
    const html =
      '<section id="json-basic"><h2>Basic usage</h2><p>Text</p></section>' +
      '<div class="sect1" id="GIN-INTRO"><div class="titlepage"><div><h2 class="title">70.1. Introduction</h2></div></div><p>GIN</p></div>' +
      '<section id="method.push" class="method"><h4 class="code-header">pub fn push(&amp;mut self)</h4></section><p>Appends</p>';
    expect(ex(html).sections?.map((s) => [s.id, s.heading])).toEqual([
      ['json-basic', 'Basic usage'],
      ['GIN-INTRO', '70.1. Introduction'],
      ['method.push', 'pub fn push(&mut self)'],
    ]);
  });

  it('takes a named anchor just before or at the start of a heading', () => {
    const html = '<a name="old"></a><h2>Old style</h2><p>x</p><h2><a id="inner"></a>Inner anchor</h2><p>y</p>';
    expect(ex(html).sections?.map((s) => s.id)).toEqual(['old', 'inner']);
  });

  it('ignores an id separated from the heading by text, headings without an id, empty headings and repeated ids', () => {
    const html = '<div id="wrap"><p>Some text</p><h2>Plain</h2></div><h2 id="e"> </h2><h2 id="a">A</h2><h2 id="a">A again</h2><h5 id="small">Small</h5>';
    expect(ex(html).sections?.map((s) => s.id)).toEqual(['a']);
  });

  it('leaves the field out of pages without sections, and drops sections cut off with the text', () => {
    expect(ex('<h2>No id</h2><p>text</p>').sections).toBeUndefined();
    const e = ex('<h2 id="a">A</h2><p>0123456789</p><h2 id="b">B</h2><p>more</p>', 10);
    expect(e.sections?.map((s) => s.id)).toEqual(['a']);
    expect(e.text).toBe('A 01234567');
  });

  it('gives exactly the text extraction gives without sections', () => {
    const piece = fc.constantFrom('', ' ', '\n', '\u00a0', 'a', 'b c', '  x  ', '\t');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.array(fc.nat(12), { maxLength: 4 }), fc.nat(30), (parts, at, max) => {
        const marks = [...new Set(at)].sort((x, y) => x - y).map((part, i) => ({ id: `s${i}`, heading: 'h', part: Math.min(part, parts.length) }));
        const { text, sections } = joinWithSections(parts, marks, max);
        expect(text).toBe(collapseWhitespace(parts.join('')).slice(0, max));
        for (const s of sections) {
          expect(s.start).toBeLessThan(text.length);
          expect(text[s.start]).not.toBe(' ');
        }
      }),
    );
  });
});
