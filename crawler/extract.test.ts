import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { collapseWhitespace, extractHtml, extractPlainText, primaryLanguage, refreshTarget } from './extract.js';

const PAGE = 'http://example.test/dir/page.html';
const ex = (html: string, opts = {}) => extractHtml(html, PAGE, opts);

describe('title, description, headings', () => {
  it('reads the first title, decoded and collapsed', () => {
    const e = ex('<html><head><title>  Tom &amp;\n Jerry </title><title>second</title></head><body>x</body></html>');
    expect(e.title).toBe('Tom & Jerry');
  });
  it('takes no title from inside <svg> or <math>: that is a drawing\'s tooltip, not the page\'s title', () => {
    expect(ex('<body><svg><title>Icon</title><path d="M0"/></svg><title>Real page</title></body>').title).toBe('Real page');
    expect(ex('<svg/><math><title>Formula</title></math><title>After</title>').title).toBe('After');
    expect(ex('<svg><title>Only icon</title></svg><p>text</p>').title).toBe('');
    expect(ex('<svg><title>Icon</title></svg><p>visible</p>').text).toBe('visible');
  });
  it('gives an empty title when there is none', () => {
    expect(ex('<p>hello</p>').title).toBe('');
  });
  it('reads meta description, falling back to og:description', () => {
    expect(ex('<meta name="Description" content=" A  page\nabout x ">').description).toBe('A page about x');
    expect(ex('<meta property="og:description" content="og text">').description).toBe('og text');
    expect(ex('<meta property="og:description" content="og"><meta name=description content="real">').description).toBe('real');
  });
  it('collects h1-h3 in order with their inline children, not h4', () => {
    const e = ex('<h1>Main <em>title</em></h1><h4>minor</h4><h2>Second</h2><h3> Third<br>line </h3><h2></h2>');
    expect(e.headings).toEqual(['Main title', 'Second', 'Third line']);
  });
});

describe('characters that hide or reorder text', () => {
  it('bidi overrides and isolates are dropped and control characters become spaces, in every field', () => {
    const e = extractHtml('<html><head><title>Invoice \u202Efdp.exe</title><meta name="description" content="a\u0000b"></head><body><h1>\u2066Head\u2069</h1><p>one\u0000two\u0085three \u200Fmark</p><a href="/x">go\u202Dhere</a></body></html>', 'http://a.test/');
    expect(e.title).toBe('Invoice fdp.exe');
    expect(e.description).toBe('a b');
    expect(e.headings).toEqual(['Head']);
    expect(e.text).toContain('one two three \u200Fmark');
    expect(e.links[0]!.text).toBe('gohere');
  });
  it('text without them is returned as is', () => {
    expect(collapseWhitespace('plain text')).toBe('plain text');
    expect(collapseWhitespace(' a\u00a0 b\n')).toBe('a b');
  });
});

describe('permalink marks', () => {
  it('leaves a link within the page whose text is a mark out of the text and the headings', () => {
    // Sphinx's "¶", Node's "#" glued to the heading's word, a footnote's back-link.
    const e = ex('<h1>Title<a class="headerlink" href="#t">¶</a></h1><p>intro</p><section id="errors"><h2>Errors<span><a class="mark" href="#errors" id="errors">#</a></span></h2><p>All errors.<a href="#fn1">↩</a></p></section>');
    expect(e.text).toBe('Title intro Errors All errors.');
    expect(e.headings).toEqual(['Title', 'Errors']);
    expect(e.sections).toEqual([{ id: 'errors', heading: 'Errors', start: e.text.indexOf('Errors') }]);
  });
  it('keeps words and names that are links within the page, and marks linking elsewhere', () => {
    const e = ex('<p>See <a href="#x">C#</a>, <a href="#top">top</a>, <a href="#n">1</a> and <a href="/next">»</a></p>');
    expect(e.text).toBe('See C#, top, 1 and »');
  });
});

describe('links in a <template> and a <noscript>', () => {
  it('follows a <noscript>\'s links (what a reader without scripts clicks), not an inert <template>\'s', () => {
    const e = ex('<noscript><a href="/plain.html">plain</a></noscript><template><a href="{{ item.url }}">x</a><area href="/tpl.html"><template><a href="/nested.html">n</a></template></template><a href="/after.html">after</a>');
    expect(e.links.map((l) => new URL(l.url).pathname)).toEqual(['/plain.html', '/after.html']);
  });
  it('takes nothing else from a <template> either: not its title, base, canonical, robots, description, refresh or language', () => {
    const e = ex(
      '<head><template><title>Inert</title><base href="http://evil.example/"><link rel="canonical" href="/hijack">' +
        '<meta name="robots" content="noindex"><meta name="description" content="inert"><meta http-equiv="refresh" content="0;url=/elsewhere">' +
        '<meta http-equiv="content-language" content="fr"></template><title>Real title</title></head><body><a href="child">c</a></body>',
    );
    expect(e.title).toBe('Real title');
    expect(e.links.map((l) => l.url)).toEqual(['http://example.test/dir/child']);
    expect(e.canonical).toBeUndefined();
    expect(e.robots).toEqual({ index: true, follow: true });
    expect(e.description).toBe('');
    expect(e.language).toBe('');
  });
});

describe('lists of other pages by class: related, similar, post navigation', () => {
  // A WordPress post's "Related" posts (Jetpack's jp-relatedposts), its "Previous Post / Next Post" and a
  // forum thread's "Similar topics" name other pages and differ on each page, so no count across the
  // site makes them template: their titles and excerpts matched other pages' title queries and were
  // their snippets (probe sites: 91 of 145 forum snippets read "Replies: 12 Views: 3456").
  it('keeps their text out of the page, and their links (with their text) in', () => {
    const e = ex(
      '<article><h1>Garlic</h1><p>Plant cloves in autumn.</p></article>' +
        '<div id="jp-relatedposts" class="jp-relatedposts"><h3>Related</h3><div class="jp-relatedposts-post"><h4><a href="/kimchi/">Fermenting Kimchi</a></h4><p>Napa cabbage and brine.</p></div></div>' +
        '<nav class="navigation post-navigation" aria-label="Posts"><div class="nav-links"><a href="/prev/">Previous Post Tomatoes</a></div></nav>' +
        '<div class="similar-topics"><h3>Similar topics</h3><ul class="topiclist"><li><a href="/t/1/">ESP32 deep sleep</a> Replies: 12</li></ul></div>' +
        '<aside class="related"><a href="/x/">next</a></aside><ul class="relatedArticles"><li><a href="/y/">Y</a> about y</li></ul>' +
        '<section id="related-macros"><h2>Related macros</h2><p>kept: an id names a section</p></section><p>end</p>',
    );
    expect(e.text).toBe('Garlic Plant cloves in autumn. Related macros kept: an id names a section end');
    expect(e.headings).toEqual(['Garlic', 'Related macros']);
    expect(e.links.map((l) => [new URL(l.url).pathname, l.text])).toEqual([
      ['/kimchi/', 'Fermenting Kimchi'],
      ['/prev/', 'Previous Post Tomatoes'],
      ['/t/1/', 'ESP32 deep sleep'],
      ['/x/', 'next'],
      ['/y/', 'Y'],
    ]);
    expect(e.links.every((l) => l.block === undefined)).toBe(true);
  });
  it('takes a shop\'s up-sells, cross-sells and "customers also bought" for one', () => {
    // WooCommerce's `up-sells upsells products` and `cross-sells`, Magento's `block crosssell`: each
    // product page's tiles pulled up other products for a product's name ("Enamel Camping Mug").
    const e = ex(
      '<h1>Desk Mat</h1><p>Stitched edges.</p><section class="up-sells upsells products"><a href="/a/">Mug</a> $16</section>' +
        '<div class="cross-sells"><a href="/b/">Tote</a></div><div class="block crosssell"><a href="/c/">Cap</a></div>' +
        '<div class="also-bought"><div class="tile"><a href="/d/">Hoodie</a> fleece</div></div><p>end</p>',
    );
    expect(e.text).toBe('Desk Mat Stitched edges. end');
    expect(e.links.map((l) => l.text)).toEqual(['Mug', 'Tote', 'Cap', 'Hoodie']);
  });
  it('does not read "unrelated" or a class that merely contains the word as one', () => {
    expect(ex('<div class="unrelated-note"><p>a</p></div><div class="dissimilar"><p>b</p></div><div class="sellers"><p>c</p></div>').text).toBe('a b c');
  });
});

describe('visible text', () => {
  it('skips script, style, noscript, template and the title', () => {
    const e = ex(
      '<title>T</title><style>p{color:red}</style><script>var x = "<p>no</p>";</script>' +
        '<noscript><p>enable js</p></noscript><template><p>tpl</p></template><p>visible</p>',
    );
    expect(e.text).toBe('visible');
  });
  it('ends a script where a browser does: after `<!--<script>` inside it, the next </script> does not', () => {
    // htmlparser2 ends every script at its first </script>, which let a page show search engines text
    // its readers never see (WHATWG's script data double escaped state).
    expect(ex('<script>var t = "<!--<script>"; inner</script>hidden words</script><p>shown</p>').text).toBe('shown');
    expect(ex('<script><!--<script>x</script>y-->z</script><p>after</p>').text).toBe('after');
    expect(ex('<script>document.write("<!--")</script><p>ends at the first</p>').text).toBe('ends at the first');
    expect(ex('<script><!--></script><p>a</p><script><!---></script><p>b</p>').text).toBe('a b');
    expect(ex('<script>if (a<b) x = "</div>"; <!-- c --></script><p>plain</p>').text).toBe('plain');
  });
  it('reads a stray `<![CDATA[` as a browser does: to the next `>`, not to the end of the page', () => {
    const e = ex('<title>T</title><p>intro<![CDATA[ never closed</p><h2 id="more">More</h2><p>the rest of the page</p>');
    expect(e.text).toBe('intro More the rest of the page');
    expect((e.sections ?? []).map((s) => s.id)).toContain('more');
    expect(ex('<p>a <![CDATA[x > y]]> b</p>').text).toBe('a y]]> b');
    // In SVG it is text of the drawing, which extraction keeps apart from the words around it.
    expect(ex('<p>a</p><svg><text><![CDATA[ drawn > label ]]></text></svg><p>b</p>').text).toBe('a drawn > label b');
  });
  it('skips what only a browser without frames shows (iframe, noembed, noframes), keeping the words around apart', () => {
    const e = ex('<p>before<iframe src="/f">fallback words</iframe>after</p><noembed>no embed</noembed><noframes>no frames</noframes><p>end</p>');
    expect(e.text).toBe('before after end');
  });
  it('separates SVG text elements, a formula and <center> from what is around them', () => {
    expect(ex('<svg><text x="0">Revenue</text><text x="80">Forecast</text><g><text><tspan>Quarterly</tspan><tspan x="80">Profit</tspan></text></g></svg>').text).toBe('Revenue Forecast Quarterly Profit');
    expect(ex('<p>old<center>centered</center>trailer and<math><mi>x</mi></math>then</p>').text).toBe('old centered trailer and x then');
  });
  it('separates words at block elements and br, not at inline elements', () => {
    expect(ex('<p>one</p><p>two</p><div>three<br>four</div><span>fi</span><b>ve</b>').text).toBe('one two three four five');
    expect(ex('<ul><li>a</li><li>b</li></ul><table><tr><td>c</td><td>d</td></tr></table>').text).toBe('a b c d');
  });
  it('decodes entities and collapses whitespace including NBSP', () => {
    expect(ex('<p>caf&eacute;&nbsp;&nbsp;au\n\tlait &lt;3</p>').text).toBe('café au lait <3');
  });
  it('reads a page of 200,000 nested elements whole, past the depth where elements become siblings (512, as Blink)', () => {
    // htmlparser2 alone spends the stack's length on each tag: this page took 25 s (a hostile page, not a timing test:
    // the test's own timeout is the bound).
    const n = 200_000;
    const e = ex(`<title>Deep</title>${'<div>'.repeat(n)}<h2>Deep heading</h2><p>deep words <a href="/deep-link">deep anchor</a></p>${'</div>'.repeat(n)}<p>after the nest</p>`);
    expect(e.text).toBe('Deep heading deep words deep anchor after the nest');
    expect(e.headings).toContain('Deep heading');
    expect(e.links.map((l) => [l.url, l.text])).toEqual([['http://example.test/deep-link', 'deep anchor']]);
    // Past the limit an element opened closes the deepest (Blink's rule): the span ends the anchor.
    const nested = (depth: number) => ex(`${'<div>'.repeat(depth)}<a href="/x">one <span>two</span></a>${'</div>'.repeat(depth)}`).links[0]?.text;
    expect(nested(100)).toBe('one two');
    expect(nested(600)).toBe('one');
  });
  it('cuts text at maxTextChars', () => {
    expect(ex('<p>' + 'word '.repeat(100) + '</p>', { maxTextChars: 20 }).text.length).toBeLessThanOrEqual(20);
  });
});

describe('language', () => {
  it.each([
    ['<html lang="en-US"><p>x</p></html>', 'en'],
    ['<html lang="ZH_Hant">', 'zh'],
    ['<meta http-equiv="Content-Language" content="ru, en">', 'ru'],
    ['<html lang="es"><meta http-equiv="content-language" content="de">', 'es'],
    ['<html lang=""><meta http-equiv="content-language" content="de">', 'de'],
    ['<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="fr-CA">', 'fr'],
    ['<html lang="x-klingon">', ''],
    // Tags that name no language: undetermined (Drupal's language-neutral pages), several, none, uncoded, private use.
    ['<html lang="und">', ''],
    ['<html lang="mul"><meta http-equiv="content-language" content="de">', 'de'],
    ['<html lang="zxx">', ''],
    ['<html lang="mis">', ''],
    ['<html lang="qaa-x-local">', ''],
    ['<p>none</p>', ''],
  ])('%s -> %j', (html, lang) => {
    expect(ex(html).language).toBe(lang);
  });
  it('primaryLanguage keeps only plain subtags', () => {
    expect(primaryLanguage('pt-BR')).toBe('pt');
    expect(primaryLanguage('*')).toBe('');
  });
});

describe('links (issue 4, seed 001: a and area href, never src)', () => {
  it('takes a and area hrefs, resolves and canonicalizes them', () => {
    const e = ex(
      '<a href="other.html">Other <b>page</b></a><a href="/Up/../x?utm_source=a&b=1#frag">X</a>' +
        '<map><area href="HTTP://Example.TEST:80/area" alt=" Area  alt "></map>' +
        '<img src="/img.png"><script src="/s.js"></script><iframe src="/frame.html"></iframe><link href="/style.css" rel="stylesheet">',
    );
    expect(e.links).toEqual([
      { url: 'http://example.test/dir/other.html', text: 'Other page', rel: [], kind: 'a', block: 0 },
      { url: 'http://example.test/x?b=1', text: 'X', rel: [], kind: 'a', block: 0 },
      { url: 'http://example.test/area', text: 'Area alt', rel: [], kind: 'area' },
    ]);
  });
  it('drops mailto:, javascript:, data:, empty and same-page fragment links', () => {
    const e = ex('<a href="mailto:a@b.c">m</a><a href="javascript:void(0)">j</a><a href="data:text/html,x">d</a><a href="">e</a><a href="#top">t</a><a>no href</a><a href="ok">ok</a>');
    expect(e.links.map((l) => l.url)).toEqual(['http://example.test/dir/ok']);
  });
  it('honours <base href>, also for links before it, resolved against the page', () => {
    const e = ex('<a href="early">e</a><base href="/base/sub/"><a href="late">l</a>');
    expect(e.links.map((l) => l.url)).toEqual(['http://example.test/base/sub/early', 'http://example.test/base/sub/late']);
    expect(ex('<base href="https://other.test/x/"><a href="y">y</a>').links[0]?.url).toBe('https://other.test/x/y');
  });
  it('ignores a base that is not http(s)', () => {
    expect(ex('<base href="javascript:x"><a href="y">y</a>').links[0]?.url).toBe('http://example.test/dir/y');
  });
  it('keeps rel tokens lower-cased, nofollow links included', () => {
    const e = ex('<a href="/a" rel="NoFollow  Sponsored">a</a><a href="/b" rel="">b</a>');
    expect(e.links.map((l) => l.rel)).toEqual([['nofollow', 'sponsored'], []]);
  });
  it('uses img alt inside a link as anchor text', () => {
    expect(ex('<a href="/home"><img src="logo.png" alt="Home page"></a>').links[0]?.text).toBe('Home page');
  });
  it('closes an unclosed anchor at the next one', () => {
    const e = ex('<a href="/1">one<a href="/2">two</a>');
    expect(e.links.map((l) => [l.url, l.text])).toEqual([['http://example.test/1', 'one'], ['http://example.test/2', 'two']]);
  });
  it('keeps every occurrence in document order and stops at maxLinks', () => {
    const html = '<a href="/a">1</a><a href="/a">2</a><a href="/b">3</a>';
    expect(ex(html).links.map((l) => l.text)).toEqual(['1', '2', '3']);
    expect(ex(html, { maxLinks: 2 }).links).toHaveLength(2);
  });
  it('a <base href> longer than any URL kept amplifies no link: relative hrefs are dropped, the others resolve by origin', () => {
    // 10,000 five-byte hrefs against a 100 KB base were a gigabyte of URLs and a parse worker out of memory.
    const base = `http://example.test/${'d'.repeat(100_000)}/`;
    const hrefs = Array.from({ length: 10_000 }, (_, i) => `<a href="${i}">x</a>`).join('');
    const e = ex(`<base href="${base}">${hrefs}<a href="/top">t</a><a href="?q=1">q</a><a href="//other.test/p">o</a><a href="https://third.test/r">r</a>`);
    expect(e.links.map((l) => l.url)).toEqual(['http://example.test/top', 'http://other.test/p', 'https://third.test/r']);
    // A long base under the limit still resolves as browsers resolve it.
    expect(ex(`<base href="http://example.test/${'d'.repeat(100)}/"><a href="x">x</a>`).links[0]?.url).toBe(`http://example.test/${'d'.repeat(100)}/x`);
  });
  it('drops links and a canonical longer than maxUrlChars, and links past maxLinkChars in all', () => {
    const long = `/${'p'.repeat(9_000)}`;
    const e = ex(`<link rel="canonical" href="${long}"><a href="${long}">long</a><a href="/short">short</a>`);
    expect(e.links.map((l) => l.text)).toEqual(['short']);
    expect(e.canonical).toBeUndefined();
    const many = Array.from({ length: 100 }, (_, i) => `<a href="/${i}-${'x'.repeat(1_000)}">${i}</a>`).join('');
    const kept = ex(many, { maxLinkChars: 10_000 }).links;
    expect(kept.length).toBe(10);
    expect(kept.map((l) => l.text)).toEqual(Array.from({ length: 10 }, (_, i) => String(i)));
  });
  it('strips session ids and tracking parameters from links', () => {
    expect(ex('<a href="/p?PHPSESSID=abc&id=3">p</a>').links[0]?.url).toBe('http://example.test/p?id=3');
    expect(ex('<a href="/p?keep=1&drop=2">p</a>', { stripParams: ['drop'] }).links[0]?.url).toBe('http://example.test/p?keep=1');
  });
});

describe('meta refresh as a link', () => {
  it.each([
    ['0; url=/next', 'http://example.test/next'],
    ['0;URL=next.html', 'http://example.test/dir/next.html'],
    ["0; url='/quoted/page.html'", 'http://example.test/quoted/page.html'],
    ['0; url="../dq.html"', 'http://example.test/dq.html'],
    ['5, URL = /comma', 'http://example.test/comma'],
    ['0; /bare', 'http://example.test/bare'],
  ])('%j -> %s', (content, url) => {
    const e = ex(`<meta http-equiv="Refresh" content="${content.replace(/"/g, '&quot;')}">`);
    expect(e.links).toEqual([{ url, text: '', rel: [], kind: 'refresh' }]);
  });
  it('gives no link for a plain reload', () => {
    expect(refreshTarget('30')).toBeUndefined();
    expect(ex('<meta http-equiv="refresh" content="30">').links).toEqual([]);
  });
  it('gives no link for a content that opens with no delay, as the HTML standard reads it', () => {
    expect(refreshTarget('-1e999;url=javascript:alert(1)')).toBeUndefined();
    expect(refreshTarget('url=/next')).toBeUndefined();
    expect(ex('<meta http-equiv=" refresh " content="-1;url=/x">').links).toEqual([]);
    expect(refreshTarget('.5; url=/next')).toBe('/next');
  });
  it('reads the quoted form the Rust docs use', () => {
    expect(refreshTarget("0;URL='../../std/index.html'")).toBe('../../std/index.html');
  });
});

describe('rel=canonical', () => {
  it('resolves and canonicalizes the link rel=canonical of the head', () => {
    const e = ex('<link rel="canonical" href="/Canon/?utm_campaign=x"><link rel="canonical" href="/Canon/">');
    expect(e.canonical).toBe('http://example.test/Canon/');
  });
  it('is none when the head names two different ones (Google ignores them all)', () => {
    expect(ex('<link rel="canonical" href="/first"><link rel="canonical" href="/second">').canonical).toBeUndefined();
  });
  it('is not taken from the body, which anyone who can post to the page writes', () => {
    expect(ex('<html><head><title>t</title></head><body><p>a comment</p><link rel="canonical" href="/hijack"></body>').canonical).toBeUndefined();
    // The head ends at the first element or text that cannot stand in it, as a browser reads it.
    expect(ex('<title>t</title><img src="x.png"><link rel="canonical" href="/hijack">').canonical).toBeUndefined();
    expect(ex('<title>t</title>Some text<link rel="canonical" href="/hijack">').canonical).toBeUndefined();
    expect(ex('<html><head><meta charset="utf-8"><script>x()</script><noscript><img src="/pixel.gif"></noscript>\n  <link rel="canonical" href="/c"></head>').canonical).toBe('http://example.test/c');
  });
  it('is absent when not given or not http(s)', () => {
    expect(ex('<p>x</p>').canonical).toBeUndefined();
    expect('canonical' in ex('<link rel=canonical href="mailto:x@y">')).toBe(false);
  });
  it('is not taken from an a element', () => {
    expect(ex('<a rel="canonical" href="/c">c</a>').canonical).toBeUndefined();
  });
});

describe('META robots in the page', () => {
  it('reads name=robots, case-insensitively', () => {
    expect(ex('<META NAME="ROBOTS" CONTENT="NOINDEX,FOLLOW">').robots).toEqual({ index: false, follow: true });
    expect(ex('<meta name="robots" content="ALL=INDEX,FOLLOW">').robots).toEqual({ index: true, follow: true });
    expect(ex('<meta name="robots" content="NONE=INDEX,FOLLOW">').robots).toEqual({ index: false, follow: false });
  });
  it('allows everything without META robots', () => {
    expect(ex('<p>x</p>').robots).toEqual({ index: true, follow: true });
  });
  it('applies the agent-specific META for our agent only, merged most-restrictive', () => {
    expect(ex('<meta name="gleaner" content="nofollow">').robots).toEqual({ index: true, follow: false });
    expect(ex('<meta name="googlebot" content="noindex">').robots).toEqual({ index: true, follow: true });
    expect(ex('<meta name=" Robots " content=" noindex ,follow">').robots).toEqual({ index: false, follow: true });
    expect(ex('<meta name="robots" content="noindex"><meta name="Gleaner" content="index, follow">').robots).toEqual({ index: false, follow: true });
    expect(ex('<meta name="mybot" content="none">', { agent: 'MyBot' }).robots).toEqual({ index: false, follow: false });
  });
  it('still returns the links of a nofollow page (the caller does not follow them)', () => {
    const e = ex('<meta name="robots" content="nofollow"><a href="/x">x</a>');
    expect(e.robots.follow).toBe(false);
    expect(e.links).toHaveLength(1);
  });
});

describe('properties', () => {
  const word = fc.stringMatching(/^[a-zA-Z0-9]{1,10}$/);
  it('returns every a/area link in document order, resolved and canonicalized, with its text', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ path: fc.array(word, { minLength: 1, maxLength: 4 }), text: fc.array(word, { maxLength: 3 }), area: fc.boolean() }), { maxLength: 15 }), (specs) => {
        const html = specs
          .map((s) => (s.area ? `<area href="${s.path.join('/')}" alt="${s.text.join(' ')}">` : `<p><a href="${s.path.join('/')}">${s.text.join('\n ')}</a></p>`))
          .join('');
        const e = ex(html);
        // Each `a` with text is a block of its own (its <p>); an area or an empty link sits in none.
        let blocks = 0;
        expect(e.links).toEqual(
          specs.map((s) => ({
            url: `http://example.test/dir/${s.path.join('/')}`,
            text: s.text.join(' '),
            rel: [],
            kind: s.area ? 'area' : 'a',
            ...(!s.area && s.text.length > 0 ? { block: blocks++ } : {}),
          })),
        );
      }),
    );
  });
  it('gives the words of block elements as the text, separated by one space', () => {
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 5 }), { maxLength: 10 }), fc.constantFrom('p', 'div', 'li', 'td', 'h4'), (blocks, tag) => {
        const html = blocks.map((b) => `<${tag}>${b.join('  ')}</${tag}>`).join('\n');
        expect(ex(html).text).toBe(blocks.map((b) => b.join(' ')).join(' '));
      }),
    );
  });
});

describe('robustness', () => {
  it('never throws and always returns canonical http(s) links on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        const e = extractHtml(`<a href="${s}">${s}</a><p>${s}</p>`, PAGE);
        for (const l of e.links) expect(l.url).toMatch(/^https?:\/\//);
        expect(e.text).toBe(collapseWhitespace(e.text));
      }),
    );
  });
  it('handles broken markup', () => {
    const e = ex('<p>unclosed <a href="/x">link<div>block</p></td>');
    expect(e.links[0]?.url).toBe('http://example.test/x');
    expect(e.text).toBe('unclosed link block');
  });
});

describe('text/plain', () => {
  it('collapses the text and has nothing else', () => {
    const e = extractPlainText('  line one\n\nline   two\t', 'http://example.test/a.txt');
    expect(e).toEqual({ title: '', description: '', headings: [], text: 'line one line two', language: '', links: [], robots: { index: true, follow: true } });
  });
  it('cuts at maxTextChars', () => {
    expect(extractPlainText('ab '.repeat(50), 'http://x.test/', { maxTextChars: 10 }).text.length).toBeLessThanOrEqual(10);
  });
});

describe('code share', () => {
  const U = 'https://example.com/page';
  it('is the share of the text, whitespace collapsed as the text holds it, inside <pre>: nearly all of a source listing', () => {
    const code = 'def annotate(self, *args, **kwargs):\n    return self._annotate(args, kwargs)\n';
    const listing = extractHtml(`<h1>Source code for query</h1><div class="highlight"><pre><span class="k">${code}</span></pre></div>`, U);
    expect(listing.codeShare).toBeCloseTo(code.replace(/\s+/g, ' ').length / listing.text.length, 2);
    expect(listing.codeShare).toBeGreaterThan(0.7);
  });
  it("does not count a grammar's indentation: its share is of the text a page's prose is measured against", () => {
    // Python's full grammar: a paragraph, then thousands of deeply indented lines. Counted as written,
    // the indentation made the code look smaller beside the collapsed text, and the page no listing.
    const rule = (i: number) => `rule_${i}:\n        | 'a' expression_${i}\n        | 'b' other_${i}\n`;
    const grammar = Array.from({ length: 200 }, (_, i) => rule(i)).join('');
    const prose = 'This is the full grammar, derived directly from the grammar used to generate the parser.';
    const x = extractHtml(`<h1>Full Grammar specification</h1><p>${prose}</p><pre>${grammar}</pre>`, U);
    const codeChars = Math.round(x.codeShare! * x.text.length);
    expect(x.text.length - codeChars).toBeLessThan(('Full Grammar specification ' + prose).length + 5);
    expect(x.text.length - codeChars).toBeGreaterThan(('Full Grammar specification ' + prose).length - 5);
  });
  it('counts nested <pre> once and stops counting at its end', () => {
    const x = extractHtml('<pre>aaaa<pre>bbbb</pre>cccc</pre><p>dddddddddddd</p>', U);
    expect(x.text).toBe('aaaa bbbb cccc dddddddddddd');
    expect(x.codeShare).toBe(Math.round((1000 * 'aaaabbbbcccc'.length) / x.text.length) / 1000);
  });
  it('is absent from prose, and inline <code> is prose', () => {
    expect(extractHtml('<p>Call <code>annotate()</code> on a query set.</p>', U).codeShare).toBeUndefined();
  });
  it("counts Doxygen's code fragments, which are divs of lines and no <pre>, to the fragment's end", () => {
    // A Doxygen source listing (a00746_source.html of libstdc++): lines in <div class="line">.
    const line = (n: number, code: string) => `<div class="line"><a id="l${n}" name="l${n}"></a><span class="lineno">${n}</span>${code}</div>`;
    const lines = [line(1, '// Components for manipulating sequences'), line(2, 'getline(basic_istream&amp; is, basic_string&amp; str)')];
    const x = extractHtml(`<div class="title">basic_string.h</div><div class="fragment">${lines.join('')}</div><p>Generated by doxygen</p>`, U);
    const code = ['1// Components for manipulating sequences', '2getline(basic_istream& is, basic_string& str)'];
    expect(x.text).toContain(code.join(' '));
    expect(x.codeShare).toBe(Math.round((1000 * (code[0]!.length + code[1]!.length)) / x.text.length) / 1000);
    expect(extractHtml('<div class="fragments-of-text"><p>Prose about fragments.</p></div>', U).codeShare).toBeUndefined();
  });
});

describe('code inside <pre>', () => {
  it("keeps apart the words of two <code> variants side by side in one <pre> (Node's ESM and CommonJS examples)", () => {
    const x = extractHtml('<pre><code class="mjs">console.log(rss()); // 35655680</code><code class="cjs">const { rss } = require(\'node:process\');</code></pre>', 'https://example.com/p');
    expect(x.text).toContain('35655680 const');
    expect(x.text).not.toContain('35655680const');
  });
  it('leaves inline <code> in prose part of its sentence', () => {
    expect(extractHtml('<p>Call <code>rss</code>() often.</p>', 'https://example.com/p').text).toBe('Call rss() often.');
  });
});

describe('an empty span or i between words (a separator or icon CSS draws)', () => {
  it('separates the words, in the text, the headings and link text', () => {
    // gi-docgen's method heading, shown "Gtk ▸ Window ▸ present" by `span.sep::after { content: "▸" }`.
    const r = ex('<h1><a href="index.html">Gtk</a><span class="sep"></span><a href="w.html">Window</a><span class="sep"></span>present</h1><p>Home<i class="icon-chevron"></i>Docs</p>');
    expect(r.headings).toEqual(['Gtk Window present']);
    expect(r.text).toContain('Gtk Window present');
    expect(r.text).toContain('Home Docs');
  });

  it('leaves words that markup splits, and empty elements beside punctuation or space, as they are', () => {
    const r = ex('<p>hyper<b></b>text, <span>inline</span>d, end<span></span>. And a<span></span> b, then <span>co</span><span>de</span> and un<wbr>break.</p>');
    expect(r.text).toBe('hypertext, inlined, end. And a b, then code and unbreak.');
  });
});
