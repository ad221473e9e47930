import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { packLinks, unpackLinks } from '../shared/store/index.js';

const HTML = `<html><body><nav><ul><li><a href="/a">Home</a></li><li> <a href="/b">Next</a> </li></ul></nav>
<p>Hello <b>world</b>   foo</p><div>x<a href="/c">see c</a></div><div>  </div><p>last</p></body></html>`;

describe('extractHtml: block boundaries', () => {
  it('keeps where each block of the collapsed text ends', () => {
    const e = extractHtml(HTML, 'http://h.test/');
    expect(e.text).toBe('Home Next Hello world foo xsee c last');
    const blocks = e.blockEnds!.map((end, i) => e.text.slice(i === 0 ? 0 : e.blockEnds![i - 1]! + 1, end));
    expect(blocks).toEqual(['Home', 'Next', 'Hello world foo', 'xsee c', 'last']);
  });
  it('gives each link the block it sits in', () => {
    const e = extractHtml(HTML, 'http://h.test/');
    expect(e.links.map((l) => [l.text, l.block])).toEqual([['Home', 0], ['Next', 1], ['see c', 3]]);
  });
  it('keeps the blocks of links through the store encoding', () => {
    const { links } = extractHtml(HTML, 'http://h.test/');
    expect(unpackLinks(packLinks(links))).toEqual(links);
  });
  it('names the blocks that are nearly all link text, links within the page counted too', () => {
    const html =
      '<ul><li><a href="#install">Install</a></li><li><a href="#use">Use it</a></li></ul>' +
      '<div><a href="/docs/">Docs</a> » <a href="/docs/lib/">Library</a> »</div>' +
      '<h1 id="x">Title</h1><p>Read <a href="/more">more</a> about it here.</p><p>No links.</p>';
    const e = extractHtml(html, 'http://h.test/page.html');
    const blocks = e.blockEnds!.map((end, i) => e.text.slice(i === 0 ? 0 : e.blockEnds![i - 1]! + 1, end));
    expect(e.linkBlocks!.map((b) => blocks[b])).toEqual(['Install', 'Use it', 'Docs » Library »']);
    // The links within the page are not links out of it.
    expect(e.links.map((l) => l.text)).toEqual(['Docs', 'Library', 'more']);
  });
});
