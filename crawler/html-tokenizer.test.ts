// ScanTokenizer against htmlparser2's own Tokenizer: the Parser on top of each must report the same
// document, event for event, on generated markup (broken, cut off, full of entities and odd comments)
// and on real documentation pages when this machine has them.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Parser, type ParserOptions } from 'htmlparser2';
import { attributeNames, MIRRORED_HTMLPARSER2, ScanTokenizer, type AttributeFilter, type AttributeNames } from './html-tokenizer.js';
import { DOC_SITES, listHtml } from '../test/support/doc-pages.js';
import { requireResource } from '../test/support/resources.js';

/** Tags whose attributes the recording handler asks for, as extraction asks for a few; and which of them. */
const WANTED = new Set(['a', 'img', 'meta', 'html', 'svg', 'p']);
const WANTED_NAME_LIST = ['href', 'alt', 'x', 'xml:lang', '=x', 'rel'];
const WANTED_NAMES = attributeNames(WANTED_NAME_LIST);

class FilteringParser extends Parser implements AttributeFilter {
  wantAttributes = true;
  wantedAttributes: AttributeNames | undefined = undefined;
}

function attributesShown(name: string, attribs: Record<string, string>, names: AttributeNames | undefined): string {
  if (!WANTED.has(name)) return '{}';
  const shown = Object.entries(attribs).filter(([k]) => names === undefined || WANTED_NAME_LIST.includes(k));
  return JSON.stringify(Object.fromEntries(shown));
}

/**
 * The Parser's events for `html`, adjacent text merged (where text is split is not part of the
 * contract). Without ScanTokenizer the Parser collects every attribute: only the wanted are compared.
 */
function events(html: string, scan: boolean, names?: AttributeNames): string[] {
  const out: string[] = [];
  let text: string | undefined;
  const flush = () => {
    if (text !== undefined) out.push(`text ${JSON.stringify(text)}`);
    text = undefined;
  };
  const options: ParserOptions = { decodeEntities: true };
  if (scan) options.Tokenizer = ScanTokenizer as unknown as NonNullable<ParserOptions['Tokenizer']>;
  const parser: FilteringParser = new FilteringParser(
    {
      onopentagname(name) {
        parser.wantAttributes = WANTED.has(name);
        parser.wantedAttributes = names;
      },
      onopentag(name, attribs, implied) {
        flush();
        out.push(`open ${name} ${attributesShown(name, attribs, names)}${implied ? ' implied' : ''}`);
      },
      onclosetag(name, implied) {
        flush();
        out.push(`close ${name}${implied ? ' implied' : ''}`);
      },
      ontext(data) {
        text = (text ?? '') + data;
      },
      oncomment(data) {
        flush();
        out.push(`comment ${JSON.stringify(data)}`);
      },
      onprocessinginstruction(name, data) {
        flush();
        out.push(`pi ${name} ${JSON.stringify(data)}`);
      },
      onend() {
        flush();
        out.push('end');
      },
    },
    options,
  );
  parser.end(html);
  return out;
}

/** Whether some `<![CDATA[` of `html` has a `>` before the one of its `]]>` (or has one and no `]]>`):
 * the one place where, outside SVG and MathML, this tokenizer reads as a browser and not as
 * htmlparser2 (its own test, below). Elsewhere the two agree, so the generated markup skips only these. */
function cdataReadsApart(html: string): boolean {
  for (let at = html.indexOf('<![CDATA['); at !== -1; at = html.indexOf('<![CDATA[', at + 1)) {
    const from = at + '<![CDATA['.length;
    const gt = html.indexOf('>', from);
    const end = html.indexOf(']]>', from);
    if (gt !== -1 && gt !== end + 2) return true;
  }
  return false;
}

/** Same events, whether the Parser asks for every attribute of the wanted tags or for a few names. */
function expectSame(html: string): void {
  expect(events(html, true), html).toEqual(events(html, false));
  expect(events(html, true, WANTED_NAMES), html).toEqual(events(html, false, WANTED_NAMES));
}

describe('the htmlparser2 this tokenizer mirrors', () => {
  it('is the exact version package.json pins and node_modules holds', () => {
    const require = createRequire(import.meta.url);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    // The main entry point's folder holds the package.json (the package's exports do not list it).
    const manifest = require.resolve('htmlparser2').replace(/(\/node_modules\/htmlparser2\/).*$/, '$1package.json');
    const installed = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    expect(pkg.dependencies.htmlparser2).toBe(MIRRORED_HTMLPARSER2);
    expect(installed.version).toBe(MIRRORED_HTMLPARSER2);
  });
});

describe('ScanTokenizer reports what htmlparser2 reports', () => {
  const cases: Record<string, string[]> = {
    text: ['', 'plain', 'a < b', 'a <3 b', '<<a>x', 'x<', 'x</', 'x</>y', '< p>'],
    entities: [
      'caf&eacute; &amp; &lt;3 &#65;&#x42;&#X43; &notin; &notit; &amp &ampx &#; &#x; &#1234567; &unknownentity;',
      'end &amp',
      'end &#65',
      'end &no',
      '<a href="?a=1&amp;b=2&copy=3&copy;&lt" title=x&amp;y alt=\'&#39;\'>t</a>',
      '<title>A &amp; B &lt</title>',
      '<title>x <&amp; </titl&amp; </title>',
      '<textarea>&lt;b&gt;</textarea>',
      '<script>a &amp; b</script>',
    ],
    tags: [
      '<p>one<p>two</p></p>',
      '<DIV CLASS=x><A HREF=/x>y</a></DIV>',
      '<a href=x/>y</a>',
      '<a href="x"/>y',
      '<a / href=x>y</a>',
      '<a href = "x" rel= nofollow title =\'t\' hidden>y</a>',
      '<a href="x"title="y">z</a>',
      '<a class="c" HREF="first" href="second" Rel=x title=t>y</a><img src=s ALT="a &amp; b" alt=c>',
      '<a data-x="1" =x="2" x>y</a>',
      '<a =x "y\' <z>w</a>',
      '<a href=>x</a><img alt= >',
      '<br/><br></br></p><form><form></form>',
      '<image src=x><svg><image/><a href=s/><foreignObject><p>in</p></foreignObject></svg>',
      '<math><mi><b>x</b></mi></math><svg><title>t</title><desc>d</desc></svg>',
      '<table><tr><td>a<td>b<tr><th>c</table>',
      '<ul><li>a<li>b</ul><dl><dt>a<dd>b</dl>',
      '<select><option>a<option>b<optgroup><option>c</select>',
    ],
    textOnly: [
      '<script>if (a < b) { x = "</div>"; }</script>after',
      '<script>x</scriptx>y</script >z',
      '<SCRIPT>x</SCRIPT>y',
      '<script>x<</script>y',
      '<style>p{}</style/>z',
      '<xmp><b>x</b></xmp><iframe><p></iframe><noembed>a</noembed><noframes>b</noframes>',
      '<plaintext><b>all text</b></plaintext>',
      '<svg><script>x</script><style>y</style></svg>',
      '<title>a</title x>b',
      '<script>never closed',
      '<script>x</scr',
      '<script>x</script',
    ],
    comments: [
      '<!-- a -->b',
      '<!---->b',
      '<!-->b',
      '<!--->b',
      '<!-- a --!>b',
      '<!-- a ---->b',
      '<!-- a -- b -->c',
      '<!-- a --',
      '<!-- a -',
      '<!--',
      '<!-',
      '<!',
      '<!>x',
      '<!->x',
      '<!-x>y',
      '<!x>y',
      '<?xml version="1.0"?>x',
      '</ x>y',
      '</3>y',
      '<![CDATA[a<b]]>c',
      '<svg><![CDATA[a<b]]></svg>',
      '<![CDATA[unclosed',
      '<![CDAT',
      '<![CDx>y',
      '<!DOCTYPE html>x',
      '<!doctypeX>y',
      '<!DOCTYPE',
      '<!DOCTY',
      '<!doc>y',
      '<!docx y>z',
    ],
    cutOff: [
      '<a',
      '<a ',
      '<a href',
      '<a href=',
      '<a href="x',
      '<a href=x',
      '<a href="x"',
      '<a href="x" /',
      '<a/',
      '<div /',
      '<scr',
      '<script',
      '<scripts',
      '<tex',
      '</a',
      '</a ',
      '</a x',
      'x<a href="a&amp',
      '<p>x</p><a href="y">z',
    ],
  };
  for (const [group, docs] of Object.entries(cases)) {
    it(`agrees on ${group}`, () => {
      for (const html of docs) expectSame(html);
    });
  }

  it('reads `<![CDATA[` outside SVG and MathML as a browser does: a bogus comment to the next `>`', () => {
    // htmlparser2 ran it to `]]>`, or to the end of the page when there was none, hiding the page.
    expect(events('<p>a<![CDATA[ x > y ]]>b</p>', true)).toEqual(['open p {}', 'text "a"', 'comment "[CDATA[ x "', 'text " y ]]>b"', 'close p', 'end']);
    expect(events('<p>before<![CDATA[ never closed</p><p>the rest of the page</p>', true)).toEqual([
      'open p {}',
      'text "before"',
      'comment "[CDATA[ never closed</p"',
      'close p implied',
      'open p {}',
      'text "the rest of the page"',
      'close p',
      'end',
    ]);
    expect(events('<p>before<![CDATA[ never closed</p><p>the rest of the page</p>', false)).toContain('comment "[CDATA[ never closed</p><p>the rest of the page</p>"');
    // Inside SVG it is a CDATA section, to `]]>` or the end, as both read it.
    for (const html of ['<svg><style><![CDATA[ a > b ]]></style></svg>after', '<svg><![CDATA[ a > b never closed</svg>x']) expectSame(html);
    expect(events('<svg><style><![CDATA[ a > b ]]></style></svg>after', true)).toContain('text " a > b "');
  });

  it('agrees on generated markup, whole and cut off anywhere', () => {
    const piece = fc.constantFrom(
      '<', '>', '/', '=', '"', "'", ' ', '\n', '&', ';', '#', 'x', '-', '!', '?', '[', ']',
      '<a', '<A', '<p', '<div', '<br', '<img', '<meta', '<svg', '<math', '<foreignObject', '<mi', '<title',
      '<script', '<style', '<textarea', '<plaintext', '<xmp', '<iframe', '<noembed', '<noframes', '<form',
      '<table', '<tr', '<td', '<li', '<h1', '<image',
      '</a', '</p', '</div', '</br', '</svg', '</script', '</title', '</textarea', '</style', '</form', '</',
      ' href=', ' href="', ' rel=nofollow', ' alt=\'', ' class="c"', ' x', '/>',
      '&amp;', '&amp', '&lt', '&#65;', '&#x41', '&notin;', '&notit', '&copy=', '&#;', '&bogus;',
      '<!--', '-->', '--!>', '---', '<!', '<!-', '<!DOCTYPE', '<!doctype html>', '<![CDATA[', ']]>', '<?',
      'text', 'caf\u00e9', '\u00a0',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(), (pieces, cut) => {
        const html = pieces.join('');
        const part = html.slice(0, html.length === 0 ? 0 : cut % (html.length + 1));
        for (const doc of [html, part]) if (!cdataReadsApart(doc)) expectSame(doc);
      }),
      { numRuns: 4000 },
    );
  });

  it('agrees on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), (html) => expectSame(html)), { numRuns: 2000 });
  });
});

// Real pages: the doc sites' HTML, when this machine has the Debian packages.
const PAGES_PER_SITE = 150;

const present = DOC_SITES.filter((s) => requireResource(`ScanTokenizer on ${s.name} doc pages (Debian ${s.debianPackage})`, s.root)).map((s) => s.root);
describe.skipIf(present.length === 0)('ScanTokenizer on real documentation pages', () => {
  it(`agrees on ${PAGES_PER_SITE} pages of each doc site installed (${present.join(', ') || 'none: skipped'})`, () => {
    let pages = 0;
    for (const root of present) {
      for (const path of listHtml(root, PAGES_PER_SITE)) {
        const html = readFileSync(path, 'latin1');
        expect(events(html, true), path).toEqual(events(html, false));
        expect(events(html, true, WANTED_NAMES), path).toEqual(events(html, false, WANTED_NAMES));
        pages++;
      }
    }
    expect(pages).toBeGreaterThan(0);
  });
});
