import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { extractHtml } from './extract.js';

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

  it('splits at h5 and h6 too: man pages made by Sphinx nest their entries that deep (Varnish varnishd, varnish-cli)', () => {
    // rst man pages: h1 the page, h2 its subtitle, h3 DESCRIPTION, h4 "List of Parameters", h5 each parameter.
    const html =
      '<div class="section" id="list-of-parameters"><h4>List of Parameters<a class="headerlink" href="#list-of-parameters">¶</a></h4><p>Run-time parameters.</p>' +
      '<div class="section" id="thread-pool-max"><span id="ref-param-thread-pool-max"></span><h5>thread_pool_max<a class="headerlink" href="#thread-pool-max">¶</a></h5><p>The maximum number of worker threads.</p></div>' +
      '<div class="section" id="ex-opt"><h6>-x option</h6><p>Rare.</p></div></div>';
    expect(startsWith(html)).toEqual([
      { id: 'list-of-parameters', heading: 'List of Parameters', at: 'List of Parameters Run-tim' },
      { id: 'thread-pool-max', heading: 'thread_pool_max', at: 'thread_pool_max The max' },
      { id: 'ex-opt', heading: '-x option', at: '-x option Rare.' },
    ]);
    // Entries, as definition terms are: linked to, not heading words of the page.
    expect(ex(html).sections?.map((s) => s.term)).toEqual([undefined, true, true]);
  });

  it('takes an id across a navigation bar: texinfo manuals, old and new', () => {
    const nav = (next: string) => `<p>Next: <a href="#${next}">${next}</a>, Previous: <a href="#p">Previous part</a>, Up: <a href="#u">Bash Features</a> &nbsp; [<a href="#c">Contents</a>][<a href="#i">Index</a>]</p>`;
    const html =
      `<div class="section" id="Aliases"><div class="header">${nav('Arrays')}</div><h3 class="section">6.6 Aliases</h3><p>Aliases allow a string</p></div>` +
      `<div class="section" id="Arrays"><div class="header">${nav('Prompt')}</div><span id="Arrays-1"></span><h3 class="section">6.7 Arrays</h3><p>Bash provides</p></div>` +
      `<a name="Prompt"></a><div class="node">${nav('Next')}</div><h3 class="section">6.9 Controlling the Prompt</h3><p>Bash examines</p>`;
    expect(ex(html).sections?.map((s) => [s.id, s.heading])).toEqual([
      ['Aliases', '6.6 Aliases'],
      ['Arrays', '6.7 Arrays'],
      ['Prompt', '6.9 Controlling the Prompt'],
    ]);
  });

  it('gives a container\'s id to its first heading only, and never across text that is not navigation', () => {
    const html =
      '<section id="s"><h2>First</h2><p>x</p><h3>Second</h3></section>' +
      '<div id="long"><p><a href="/a">Home</a> is where this chapter of the manual starts to explain things at length</p><h2>Explained</h2></div>';
    expect(ex(html).sections?.map((s) => s.id)).toEqual(['s']);
  });

  it('takes a named anchor just before or at the start of a heading', () => {
    const html = '<a name="old"></a><h2>Old style</h2><p>x</p><h2><a id="inner"></a>Inner anchor</h2><p>y</p>';
    expect(ex(html).sections?.map((s) => s.id)).toEqual(['old', 'inner']);
  });

  it('splits at definition terms that can be linked to: Sphinx, PostgreSQL, SQLite', () => {
    const html =
      '<section id="string-methods"><h3>String Methods</h3><p>Strings implement</p>' +
      '<dl class="py method"><dt class="sig" id="str.split"><span>str.split</span>(<em>sep=None</em>)<a class="headerlink" href="#str.split">¶</a></dt><dd><p>Return a list of the words</p></dd></dl></section>' +
      '<div class="variablelist"><dl><dt id="GUC-MAX-CONNECTIONS"><span class="term"><code>max_connections</code> (<code>integer</code>)</span></dt><dd><p>Determines the maximum</p></dd></dl></div>' +
      '<h1 id="desc">Descriptions</h1><dl><a name="coalesce"></a><dt><p><b>coalesce(<i>X</i>,<i>Y</i>,...)</b></dt><dd><p>The coalesce() function returns</p></dd>' +
      '<a name="substr"></a><dt><p><b>substr(X,Y,Z)<br>substr(X,Y)</b></dt><dd><p>The substr(X,Y,Z) function</p></dd></dl>';
    expect(startsWith(html)).toEqual([
      { id: 'string-methods', heading: 'String Methods', at: 'String Methods Strings' },
      { id: 'str.split', heading: 'str.split(sep=None)', at: 'str.split(sep=None) Return ' },
      { id: 'GUC-MAX-CONNECTIONS', heading: 'max_connections (integer)', at: 'max_connections (integer) Determi' },
      { id: 'desc', heading: 'Descriptions', at: 'Descriptions coalesc' },
      { id: 'coalesce', heading: 'coalesce(X,Y,...)', at: 'coalesce(X,Y,...) The coa' },
      { id: 'substr', heading: 'substr(X,Y,Z) substr(X,Y)', at: 'substr(X,Y,Z) substr(X,Y) The sub' },
    ]);
  });

  it("names a term by texinfo's index anchors, the empty spans that end the entry before it", () => {
    const html =
      '<h2 id="builtins">Builtins</h2><dl><dt><span><tt>alias</tt> [ name ]</span></dt><dd><p>Define aliases.</p>' +
      '<span id="index-typeset"></span><span id="index-parameters_002c-setting"></span>\n</dd>' +
      '<dt><span><tt>typeset</tt> [ name ]</span></dt><dd><p>Set attributes.</p><span id="index-far"></span><p>Text between</p></dd>' +
      '<dt>Unnamed</dt><dd>x</dd></dl>';
    expect(ex(html).sections?.map((s) => [s.id, s.heading, s.term === true])).toEqual([
      ['builtins', 'Builtins', false],
      ['index-typeset', 'typeset [ name ]', true],
    ]);
  });

  it("gives a term no container's id, nor an anchor's across text, and leaves terms without an id alone", () => {
    const html =
      '<div id="content"><dl><dt>Glossary term</dt><dd>Its meaning</dd></dl><h2>After</h2></div>' +
      '<a name="far"></a><p>Text between</p><dl><dt>Far term</dt><dd>x</dd></dl><h2 id="last">Last</h2>';
    expect(ex(html).sections?.map((s) => [s.id, s.heading])).toEqual([['last', 'Last']]);
  });

  it('ignores an id separated from the heading by text, headings without an id, empty headings and repeated ids', () => {
    const html = '<div id="wrap"><p>Some text</p><h2>Plain</h2></div><h2 id="e"> </h2><h2 id="a">A</h2><h2 id="a">A again</h2>';
    expect(ex(html).sections?.map((s) => s.id)).toEqual(['a']);
  });

  it('leaves the field out of pages without sections, and drops sections cut off with the text', () => {
    expect(ex('<h2>No id</h2><p>text</p>').sections).toBeUndefined();
    const e = ex('<h2 id="a">A</h2><p>0123456789</p><h2 id="b">B</h2><p>more</p>', 10);
    expect(e.sections?.map((s) => s.id)).toEqual(['a']);
    expect(e.text).toBe('A 01234567');
  });

  it('each section starts at its heading text, in the same text a page without ids gives', () => {
    const block = fc.oneof(
      fc.constantFrom('<p>Some words here.</p>', '<p>  spaced\n out </p>', '<ul><li>one</li><li>two</li></ul>', '<div><a href="/x">link</a> text</div>', '<p></p>'),
      fc.nat(99).map((n) => `<h2 id="s${n}">Heading ${n}</h2>`),
      fc.nat(99).map((n) => `<a name="n${n}"></a><h3>Named ${n}</h3>`),
      fc.nat(99).map((n) => `<dl><dt id="t${n}">term${n}(x)</dt><dd>What it does.</dd></dl>`),
      fc.nat(99).map((n) => `<a name="d${n}"></a><dt><p><b>def${n}(X)</b></dt><dd><p>Returns X.</dd>`),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 10 }), fc.integer({ min: 5, max: 200 }), (blocks, max) => {
        const html = blocks.join('');
        const e = ex(html, max);
        expect(e.text).toBe(ex(html.replace(/ (id|name)="[^"]*"/g, ''), max).text);
        for (const sec of e.sections ?? []) {
          expect(sec.start).toBeLessThan(e.text.length);
          expect(sec.heading.startsWith(e.text.slice(sec.start, sec.start + sec.heading.length))).toBe(true);
        }
      }),
    );
  });
});

describe('permalinks inside headings', () => {
  it('take the id of an anchor linking to itself anywhere in the heading, and leave its mark out of the heading', () => {
    const html =
      '<h2>File system<span><a class="mark" href="#file-system" id="file-system">#</a></span><a aria-hidden="true" class="legacy" id="fs_file_system"></a></h2><p>Text</p>' +
      '<section id="os-path"><h2>os.path<a class="headerlink" href="#os-path" title="Link">¶</a></h2><p>More</p></section>' +
      '<h2><a href="#install" id="install">Install it</a></h2><p>Run make.</p>';
    expect(ex(html).sections?.map((s) => [s.id, s.heading])).toEqual([
      ['file-system', 'File system'],
      ['os-path', 'os.path'],
      ['install', 'Install it'],
    ]);
  });

  it("take the id a heading's permalink points at when it opened since the last heading, before a container's (Django)", () => {
    const html =
      '<div class="section" id="s-foreignkey"><span id="s-ref-foreignkey"></span><span id="foreignkey"></span><span id="ref-foreignkey"></span>' +
      '<h3><code><span class="pre">ForeignKey</span></code><a class="headerlink" href="#foreignkey" title="Permalink to this heading">¶</a></h3>' +
      '<p>A many-to-one relationship.</p></div>' +
      // An id from before the previous heading names nothing; the mark still leaves the heading.
      '<section id="s-next"><h3>Next<a class="headerlink" href="#foreignkey">¶</a></h3><p>More</p></section>' +
      '<h2 id="later">Later<a href="#not-yet">#</a></h2><p>Text</p>' +
      // Sphinx's back-link to the contents, then its permalink: the words stay, the mark goes.
      '<section id="why-indentation"><h2><a class="toc-backref" href="#id3">Why indentation?</a><a class="headerlink" href="#why-indentation">¶</a></h2><p>Because</p></section>';
    expect(ex(html).sections?.map((s) => [s.id, s.heading])).toEqual([
      ['foreignkey', 'ForeignKey'],
      ['s-next', 'Next'],
      ['later', 'Later'],
      ['why-indentation', 'Why indentation?'],
    ]);
  });
  it("splits at a block whose class calls it a heading, first in an element with an id: RDoc's method entries", () => {
    // RDoc Darkfish (Ruby's reference): each method a <div id="method-i-gsub"> whose call sequences are
    // <div class="method-heading">, no h-element; the whole "Public Instance Methods" was one section.
    const html =
      '<section id="public-instance-methods"><header><h3>Public Instance Methods</h3></header>' +
      '<div id="method-i-gsub" class="method-detail "><div class="method-heading"><span class="method-callseq">gsub(pattern, replacement) &rarr; new_string</span></div>' +
      '<div class="method-heading"><span class="method-callseq">gsub(pattern) &rarr; enumerator</span></div>' +
      '<div class="method-description"><p>Returns a copy of self.</p></div></div>' +
      '<div id="method-i-sub" class="method-detail"><div class="method-heading"><span class="method-callseq">sub(pattern)</span></div><p>Returns one.</p></div></section>' +
      // No id right before it: Bootstrap's panel heading, and one after text, name nothing.
      '<div class="panel"><div class="panel-heading">Panel</div><p>x</p></div><div id="far"><p>Text</p><div class="heading">Far</div></div>';
    expect(startsWith(html)).toEqual([
      { id: 'public-instance-methods', heading: 'Public Instance Methods', at: 'Public Instance Methods gsub(pa' },
      { id: 'method-i-gsub', heading: 'gsub(pattern, replacement) → new_string', at: 'gsub(pattern, replacement) → new_string gsub(pa' },
      { id: 'method-i-sub', heading: 'sub(pattern)', at: 'sub(pattern) Returns' },
    ]);
    // Entries, as definition terms are: linked to, not heading words of the page.
    expect(ex(html).sections?.map((s) => s.term)).toEqual([undefined, true, true]);
  });
});
