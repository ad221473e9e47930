import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';

const PAGE = 'http://docs.test/manual/gin-intro.html';
const up = (head: string, body: string) => extractHtml(`<html><head><title>70.1. Introduction</title>${head}</head><body>${body}<p>Text.</p></body></html>`, PAGE).up;

describe('the page one level up (PageRecord.up)', () => {
  it("is DocBook's and Sphinx's Up link (accesskey u, either case), resolved as links are", () => {
    expect(up('', '<a accesskey="p" href="gin.html">Prev</a> <a accesskey="u" href="gin.html">Up</a> <a accesskey="h" href="index.html">Home</a>')).toBe('http://docs.test/manual/gin.html');
    expect(up('', '<a href="allos.html" accesskey="U">Generic Operating System Services</a>')).toBe('http://docs.test/manual/allos.html');
    expect(up('', '<a rel="up" href="../guide/">Guide</a>')).toBe('http://docs.test/guide/');
  });

  it('prefers <link rel=up> in the head (texinfo) to a marked link, and a marked link to a breadcrumb', () => {
    const trail = '<nav aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/trail/">Trail</a></li></ol></nav>';
    expect(up('<link href="Using-libffi.html" rel="up" title="Using libffi">', `<a accesskey="u" href="gin.html">Up</a>${trail}`)).toBe('http://docs.test/manual/Using-libffi.html');
    expect(up('', `${trail}<a accesskey="u" href="gin.html">Up</a>`)).toBe('http://docs.test/manual/gin.html');
    expect(up('', trail)).toBe('http://docs.test/trail/');
  });

  it("takes a breadcrumb trail's last link that is not the page itself, and only inside the trail", () => {
    const trail = '<nav class="x" aria-label="breadcrumbs"><a href="/">Docs</a> › <div><a href="/manual/">Manual</a></div> › <a href="gin-intro.html#top">Introduction</a></nav><a href="/elsewhere.html">After</a>';
    expect(up('', trail)).toBe('http://docs.test/manual/');
    // A nav of another kind is not a trail; a link to the page itself or a fragment is not a parent.
    expect(up('', '<nav aria-label="Main"><a href="/a.html">A</a></nav>')).toBeUndefined();
    expect(up('', '<a accesskey="u" href="#top">Up</a> <a accesskey="u" href="gin-intro.html">Up</a>')).toBeUndefined();
    expect(up('', '<p>No navigation at all.</p>')).toBeUndefined();
  });

  it("keeps a trail's last links only, however many it has", () => {
    const links = Array.from({ length: 50_000 }, (_, i) => `<a href="/p${i}.html">P${i}</a>`).join('');
    expect(up('', `<nav aria-label="breadcrumb">${links}<a href="gin-intro.html">Here</a></nav>`)).toBe('http://docs.test/p49999.html');
  });

  it('reads only the first trail, whatever nests inside it', () => {
    const first = '<div aria-label="breadcrumb"><div><a href="/one/">One</a></div><a href="/two/">Two</a></div>';
    const second = '<ol aria-label="breadcrumb"><li><a href="/three/">Three</a></li></ol>';
    expect(up('', first + second)).toBe('http://docs.test/two/');
  });
});
