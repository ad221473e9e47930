// HTML (and text/plain) to the fields a PageRecord carries, in one streaming htmlparser2 pass: no DOM is
// built, because parsing is what limits crawl speed (issue 4: a DOM-building parser took 84-92% of a
// crawler's CPU). Pure: a string in, a value out.
//
// Decisions (what the issue leaves open):
// - Links come from `a[href]` and `area[href]` only (none inside an inert `<template>`), never `src` (seed 001), plus a
//   `<meta http-equiv=refresh>` target as kind 'refresh'. They are resolved against `<base href>` (which
//   applies to the whole document, also to links before it, so resolution happens at the end) and
//   canonicalized; those canonicalizeUrl rejects (mailto:, javascript:, data:, unparsable) are dropped, and
//   so are same-page `#fragment` links. Every occurrence is kept in document order (the link graph may
//   weigh repeated anchors); nofollow links are kept with their rel tokens, the caller decides.
// - Anchor text is the link's text plus the `alt` of images inside it (what a reader sees as the link);
//   for `area` it is the `alt` attribute. Whitespace is collapsed.
// - In every text field control characters become spaces and bidi overrides are dropped
//   (collapseWhitespace): a result's title or snippet shows what the page says, in the order it says it.
// - Visible text skips script, style, noscript, template, the title, and what only a browser without
//   frames would show (iframe, noembed, noframes); block-level elements and `br` separate words, inline
//   elements do not (`foo<b>bar</b>` is one word).
// - A `<template>`'s content is inert: its title, base, canonical and metas are not the page's.
// - Canonical: `<link rel=canonical>` in the head only (as Google reads it: one in the body is anyone's
//   to write), and none when the head names two different ones.
// - Language: the primary subtag of `<html lang>` (or XHTML's `xml:lang`), else of `<meta http-equiv=content-language>` (its first
//   entry), else ''. Values that are not a plain subtag (`x-klingon`, `*`) give ''.
// - Headings: the text of h1, h2 and h3 in document order (h4-h6 are rarely titles), empty ones left out.
// - A permalink's mark, a link within the page whose text is a symbol or two and no word (Sphinx's "¶",
//   Node's "#", a footnote's "↩"), is no text of the page: snippets showed "ForeignKey¶", and Node's
//   "Errors#" read as a name ending in `#` (as "C#" is).
// - Up: the page one level up in its site, as the page names it (parent-link.ts), resolved as links are.
// - Description: `<meta name=description>`, else `<meta property=og:description>`.
// - Date: the date the page declares in its metadata (metas, microdata, `<time pubdate>`, JSON-LD), a
//   publication date before a modification date (page-date.ts); none when it declares none.
// - Robots: META robots and the agent-specific META (see robots-meta.ts), merged most-restrictive-wins.
//   The links of a nofollow page are still returned: the caller must not follow them (robots.follow).

import { Parser, type ParserOptions } from 'htmlparser2';
import { attributeNames, ScanTokenizer, type AttributeFilter } from './html-tokenizer.js';
import { canonicalizeUrl, type CanonicalizeOptions } from '../shared/url.js';
import type { OutLink, PageRecord, RobotsDirectives } from '../shared/store/index.js';
import { DEFAULT_AGENT } from '../shared/agent.js';
import { DeclaredDate, offerLinkedData } from './page-date.js';
import { mergeRobots, parseRobotsMeta } from './robots-meta.js';
import { linkResolver } from './resolve-link.js';
import { letterCount } from './char-count.js';
import { ID_CARRIERS, SectionCollector, sectionsFromBlocks } from './sections.js';
import { DefinedNamesCollector } from './defined-names.js';
import { ParentLinkCollector, TRAIL_HOLDERS } from './parent-link.js';

/** The page fields extraction fills in; their meaning is documented on PageRecord. */
export type Extracted = Pick<PageRecord, 'title' | 'description' | 'date' | 'headings' | 'text' | 'blockEnds' | 'linkBlocks' | 'language' | 'links' | 'canonical' | 'robots' | 'sections' | 'defines' | 'codeShare' | 'up'>;

/** Defaults: DEFAULT_EXTRACT_OPTIONS below. */
export interface ExtractOptions {
  /** Product token whose agent-specific META (`<meta name="gleaner">`) applies, case-insensitive. */
  agent: string;
  /** Query parameters stripped from every link (shared/url.ts DEFAULT_STRIP_PARAMS when absent). */
  stripParams?: readonly string[];
  /** Links after this many are dropped: a guard against generated link farms. */
  maxLinks: number;
  /** Links (and a canonical) whose URL is longer than this, in characters, are dropped. Well above the
   * trap rule's --max-url-length (1,024 by default), which cuts and counts what gets through. */
  maxUrlChars: number;
  /** Links after their URLs and anchor texts reach this many characters in all are dropped: a page of
   * 10,000 links of 8 KB each would otherwise be an 80 MB record. */
  maxLinkChars: number;
  /** Visible text after this many characters is cut (the body cap bounds it already; this bounds memory). */
  maxTextChars: number;
}

export const DEFAULT_EXTRACT_OPTIONS: ExtractOptions = {
  agent: DEFAULT_AGENT,
  maxLinks: 10_000,
  maxUrlChars: 8_192,
  maxLinkChars: 2_000_000,
  maxTextChars: 1_000_000,
};

/** An href that names its own scheme (`http:`, `mailto:`): resolved without the base's path. */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;


// An <iframe>'s, <noembed>'s and <noframes>' content is text only a browser without frames would show:
// none does now, so it is no text of the page (it was a place to say to search engines what readers
// never see).
/** The most JSON-LD text a page's blocks are read for their date (crawler/page-date.ts): a page's own
 * description is a few KB; a block of a product catalogue can be megabytes of no date of the page. */
const MAX_LINKED_DATA_CHARS = 256 * 1024;
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'title', 'iframe', 'noembed', 'noframes']);
/** What may stand in a document's head; any other element, or text, starts the body (WHATWG "in head"). */
const HEAD_CONTENT = new Set(['html', 'head', 'title', 'base', 'link', 'meta', 'style', 'script', 'noscript', 'template']);
const HEADINGS = new Set(['h1', 'h2', 'h3']);
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'dd', 'details', 'dialog', 'div',
  'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'head', 'header', 'hr', 'html', 'legend', 'li', 'main', 'nav', 'ol', 'option', 'p', 'pre', 'section',
  'select', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'img', 'input',
  'button', 'textarea', 'iframe', 'video', 'audio', 'object', 'canvas', 'svg', 'area', 'map', 'center',
  // SVG's text elements are placed apart on the drawing, and MathML's formula apart from the text.
  'math', 'text', 'tspan',
]);

/** The length of `text` with each run of whitespace as one space, without making that text. */
function collapsedLength(text: string): number {
  let n = 0;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const white = c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
    if (!white || !space) n++;
    space = white;
  }
  return n;
}

/** Any whitespace but a single inner space: a tab, newline, no-break or wide space, two spaces, or an
 * edge; or a character collapseWhitespace drops (CONTROL, REORDER). */
const UNCOLLAPSED = /[^\S ]| {2}|^ | $|[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** Control characters (NUL, C1): no page shows them; they become spaces. */
const CONTROL = /[\s\u00a0\u0000-\u001f\u007f-\u009f]+/g;
/** Bidi embeddings, overrides and isolates (U+202A-E, U+2066-9): in a title or snippet they reorder
 * what follows them ("Invoice \u202Efdp.exe" shows as "Invoice exe.pdf"), the Trojan Source trick.
 * Dropped; the marks (LRM, RLM) stay, since they cannot reverse a run. */
const REORDER = /[\u202a-\u202e\u2066-\u2069]/g;

/** The elements whose attributes extraction reads, and the attributes it reads; the rest go unread. */
// A span's id is read for defined-names.ts alone: Sphinx sets its reference targets on empty spans
// before a heading (`<span id="std-setting-STATIC_ROOT"></span><h3>`).
// A nav's or list's aria-label is read for parent-link.ts alone (a breadcrumb trail).
const ATTRIBUTE_TAGS = new Set(['a', 'area', 'img', 'base', 'html', 'link', 'meta', 'time', 'script', 'dt', 'span', ...ID_CARRIERS, ...TRAIL_HOLDERS]);
const ATTRIBUTE_LIST = ['href', 'rel', 'alt', 'lang', 'xml:lang', 'content', 'name', 'http-equiv', 'property', 'id', 'accesskey', 'aria-label', 'itemprop', 'datetime', 'pubdate', 'type'];
const ATTRIBUTE_NAMES = attributeNames(ATTRIBUTE_LIST);
/** The elements whose class is read too (OTHER_PAGES_CLASS), and the names read of them. */
const CLASS_TAGS = new Set(['div', 'section', 'aside', 'nav', 'ul', 'ol']);
const ATTRIBUTE_NAMES_WITH_CLASS = attributeNames([...ATTRIBUTE_LIST, 'class']);
/** The elements whose class is read: those, and Doxygen's member names, `<td class="memname">`
 * (crawler/defined-names.ts). */
const CLASS_READ_TAGS = new Set([...CLASS_TAGS, 'td']);

/** A text that begins, and one that ends, with a letter or digit: an empty element between them separates words. */
const WORD_START = /^[\p{L}\p{N}]/u;
const WORD_END = /[\p{L}\p{N}]$/u;

/** A div of code that is no `<pre>`: Doxygen's `fragment` (its code samples and whole source files). */
function isCodeFragment(className: string | undefined): boolean {
  return className !== undefined && /(?:^|\s)fragment(?:\s|$)/.test(className);
}

/**
 * A class part (classes split at `-` and `_`) that marks a list of other pages: a post's related posts
 * (Jetpack's `jp-relatedposts`, YARPP's `yarpp-related`, `related-posts`, Sphinx's `related` bar), a
 * thread's similar topics, a shop's up-sells, cross-sells and "customers also bought", and WordPress's `post-navigation` ("Previous Post …  Next Post …"). Such a
 * block names other pages and differs on each page, so no count across the host finds it template
 * (indexer/templates.ts); its titles and excerpts made the page match other pages' title queries and
 * were its snippets. Its text is left out of the page, its links (with their text) kept. Classes only,
 * not ids: an id names a section ("related-macros"). As readability's unlikely-candidate classes.
 */
const OTHER_PAGES_CLASS = /(?:^|[\s_-])(?:related|similar|up-?sells?|cross-?sells?|also-(?:bought|viewed))|(?:^|\s)post-navigation(?:\s|$)/i;

/**
 * htmlparser2's Parser on ScanTokenizer, which skips the attributes of the elements extraction does
 * not look at. A documentation page's spans and divs carry classes and ids on nearly every tag, and
 * slicing, lower-casing and storing each of them was a sixth of extraction.
 */
class ExtractionParser extends Parser implements AttributeFilter {
  /** Set by the handler's onopentagname, which the Parser calls before the tag's attributes. */
  wantAttributes = true;
  wantedAttributes = ATTRIBUTE_NAMES;

  /** At MAX_OPEN_ELEMENTS, the deepest open element is closed first, so the new one becomes its sibling. */
  override onopentagname(start: number, endIndex: number): void {
    // The Parser's open elements, private in its types: the version is pinned (MIRRORED_HTMLPARSER2).
    const tree = this as unknown as { stack: readonly string[]; popElement(implied: boolean): void };
    if (tree.stack.length >= MAX_OPEN_ELEMENTS) tree.popElement(true);
    super.onopentagname(start, endIndex);
  }
}

/**
 * How deep elements may nest, as in Blink's HTML parser (512, kMaximumHTMLParserDOMTreeDepth), which
 * makes an element opened deeper the deepest one's sibling. htmlparser2 keeps its open elements in an
 * array it unshifts and shifts at the front, so each tag on a deep stack costs the stack's length: a
 * page of 200,000 nested divs took 25 s to extract (80,000: 4.3 s), and all of it is still read here.
 */
const MAX_OPEN_ELEMENTS = 512;

/** htmlparser2 types its Tokenizer option as its own class; ScanTokenizer has the same constructor and methods. */
const TOKENIZER = ScanTokenizer as unknown as NonNullable<ParserOptions['Tokenizer']>;

/** Collapses runs of whitespace (including NBSP) and control characters to one space, drops bidi
 * reordering controls, and trims. */
export function collapseWhitespace(s: string): string {
  // Most anchor texts and headings are clean already: a scan instead of a copy (a page has hundreds).
  return UNCOLLAPSED.test(s) ? s.replace(REORDER, '').replace(CONTROL, ' ').trim() : s;
}

/** `en-US` -> `en`; '' for anything that is not a plain language subtag, or one that names no language:
 * BCP 47's `und` (undetermined: Drupal marks language-neutral pages so), `mul` (several), `zxx` (no
 * linguistic content), `mis` (uncoded) and the private-use `qaa`-`qtz`. Such a page was indexed in a
 * language no analyzer knows (no stemming, a `lang:und` of its own), where a page that says nothing
 * has its language detected from its text. */
export function primaryLanguage(tag: string): string {
  const first = tag.split(/[,;]/)[0] ?? '';
  const primary = (first.trim().split(/[-_]/)[0] ?? '').toLowerCase();
  return /^[a-z]{2,3}$/.test(primary) && !NO_LANGUAGE.test(primary) ? primary : '';
}

const NO_LANGUAGE = /^(?:und|mul|zxx|mis|q[a-t][a-z])$/;

/**
 * The URL of a `<meta http-equiv=refresh>` content (`0; url=/next`, `0;URL='/next'`, `5, url="x"`,
 * `0; /next`), or undefined when it names none.
 */
export function refreshTarget(content: string): string | undefined {
  // The HTML standard's refresh parsing: a content that does not open with a delay (digits or a dot)
  // is no refresh at all ("-1e999;url=javascript:…" was followed as a link to "-1e999;url=…").
  if (!/^\s*[\d.]/.test(content)) return undefined;
  const m = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let target = (m?.[1] ?? '').trim();
  const q = target[0];
  if (q === '"' || q === "'") {
    const end = target.indexOf(q, 1);
    target = end === -1 ? target.slice(1) : target.slice(1, end);
  }
  target = target.trim();
  return target === '' ? undefined : target;
}

interface RawLink {
  href: string;
  /** The raw text segment (block) the link opened in; see splitBlocks. */
  segment: number;
  text: string;
  rel: string[];
  kind: OutLink['kind'];
}

function relTokens(rel: string | undefined): string[] {
  if (rel === undefined) return [];
  return rel.toLowerCase().split(/\s+/).filter((t) => t !== '');
}

/** Extracts title, text, links and robots directives from an HTML document fetched from `pageUrl`. */
export function extractHtml(html: string, pageUrl: string, options: Partial<ExtractOptions> = {}): Extracted {
  const opts = { ...DEFAULT_EXTRACT_OPTIONS, ...options };
  const agent = opts.agent.toLowerCase();

  const textParts: string[] = [];
  let textChars = 0;
  // A block boundary adds one space before the next text, not one array entry per tag (less garbage).
  let pendingSpace = false;
  // Block boundaries are kept as BLOCK_MARK in the joined text (splitBlocks); `segments` counts them.
  let segments = 0;
  let skipDepth = 0;
  /** The element (by name) that opened a list of other pages (OTHER_PAGES_CLASS), and how many
   * elements of that name are open inside it, itself counted: its text is not the page's. */
  let otherPagesTag: string | undefined;
  let otherPagesDepth = 0;
  let title: string | undefined;
  let titleBuf: string[] | undefined;
  /** Open <svg> and <math> elements: a <title> inside one is the drawing's tooltip, not the page's
   * title (browsers' document.title takes the first HTML <title>). */
  let foreignDepth = 0;
  // A <template>'s content is inert: no part of the page until a script copies it, its hrefs often
  // placeholders ("{{ item.url }}"), so its links are not followed (a <noscript>'s are: they are what
  // a reader without scripts clicks).
  let templateDepth = 0;
  let description: string | undefined;
  let ogDescription: string | undefined;
  let htmlLang: string | undefined;
  let metaLang: string | undefined;
  const declared = new DeclaredDate();
  /** The text of the JSON-LD block being read, and how much of the page's JSON-LD has been read. */
  let linkedData: string[] | undefined;
  let linkedDataChars = 0;
  let baseHref: string | undefined;
  /** The rel=canonical hrefs of the head (at most two are kept: two that differ name no canonical). */
  const canonicalHrefs: string[] = [];
  /** The head has ended: a canonical after it is the body's, which anyone who can post to the page
   * writes (Google takes one only from the head). */
  let inBody = false;
  const robots: RobotsDirectives[] = [];
  const headings: string[] = [];
  let headingBuf: string[] | undefined;
  let headingTag = '';
  const raw: RawLink[] = [];
  let anchor: RawLink | undefined;
  let anchorBuf: string[] = [];
  /** For an open link within the page: where its text starts in textParts and headingBuf (isMark). */
  let markFrom: { text: number; heading: string[] | undefined; headingAt: number } | undefined;
  // Text inside <pre> (or a code fragment), counted with its whitespace collapsed as the text keeps it: a
  // page that is nearly all of it is a source listing, not prose that answers (indexer/listing.ts,
  // web/search/rank.ts listingFactor).
  let preDepth = 0;
  // Divs open inside a code fragment that is no <pre>: Doxygen writes code, its 724 source listings of
  // libstdc++ too, as <div class="fragment"> of <div class="line">.
  let fragmentDepth = 0;
  // An empty span or i between two words is a separator or an icon that CSS draws (gi-docgen's
  // `Gtk<span class="sep"></span>Window`, shown "Gtk ▸ Window"; an icon font's `<i class="fa-…"></i>`):
  // read as nothing, it ran the words together ("GtkWindowpresent"). `emptyInline` is the element
  // opened last while nothing has followed it; `separated` is set when it closed so.
  let emptyInline: string | undefined;
  let separated = false;
  let codeChars = 0;
  const sectionMarks = new SectionCollector();
  const defined = new DefinedNamesCollector();
  const parent = new ParentLinkCollector();

  const closeAnchor = (): void => {
    if (anchor === undefined) return;
    anchor.text = collapseWhitespace(anchorBuf.length === 1 ? anchorBuf[0]! : anchorBuf.join(''));
    if (markFrom !== undefined && isMark(anchor.text)) {
      // Emptied, not removed: section marks count parts (SectionCollector's `part`).
      for (let i = markFrom.text; i < textParts.length; i++) if (textParts[i] !== BLOCK_MARK) textParts[i] = '';
      if (headingBuf !== undefined && headingBuf === markFrom.heading) headingBuf.length = markFrom.headingAt;
    }
    markFrom = undefined;
    raw.push(anchor);
    anchor = undefined;
    anchorBuf = [];
  };

  const parser = new ExtractionParser(
    {
      onopentagname(name) {
        parser.wantAttributes = ATTRIBUTE_TAGS.has(name) || CLASS_READ_TAGS.has(name);
        parser.wantedAttributes = CLASS_READ_TAGS.has(name) ? ATTRIBUTE_NAMES_WITH_CLASS : ATTRIBUTE_NAMES;
      },
      onopentag(name, attribs) {
        emptyInline = name === 'span' || name === 'i' ? name : undefined;
        sectionMarks.onOpen(name, attribs, textParts.length);
        defined.onOpen(name, attribs);
        parent.onOpen(name, attribs);
        if (name === 'svg' || name === 'math') foreignDepth++;
        if (name === 'pre') preDepth++;
        if (name === 'div' && (fragmentDepth > 0 || isCodeFragment(attribs.class))) fragmentDepth++;
        if (name === 'template') templateDepth++;
        // A <noscript>'s tracking pixel in the head does not end it: a browser that runs scripts reads
        // that content as text.
        if (!HEAD_CONTENT.has(name) && skipDepth === 0) inBody = true;
        // Inside <pre>, each <code> starts a block: Node's docs put a page's ESM and CommonJS variants of
        // one example side by side in one <pre> (CSS shows one), and "// 35655680</code><code>const"
        // read as the word "35655680const".
        if (BLOCKS.has(name) || (name === 'code' && preDepth > 0)) {
          pendingSpace = true;
          if (anchor !== undefined) anchorBuf.push(' ');
          if (headingBuf !== undefined) headingBuf.push(' ');
          sectionMarks.onBreak();
        }
        if (otherPagesTag === undefined) {
          if (attribs.class !== undefined && CLASS_TAGS.has(name) && OTHER_PAGES_CLASS.test(attribs.class)) {
            otherPagesTag = name;
            otherPagesDepth = 1;
          }
        } else if (name === otherPagesTag) otherPagesDepth++;
        if (SKIPPED.has(name)) {
          skipDepth++;
          // A <title> in a <template> is inert, one in an <svg> the drawing's tooltip.
          if (name === 'title' && foreignDepth === 0 && templateDepth === 0 && title === undefined && titleBuf === undefined) titleBuf = [];
          if (name === 'script' && templateDepth === 0 && attribs.type?.trim().toLowerCase() === 'application/ld+json' && linkedDataChars < MAX_LINKED_DATA_CHARS) linkedData = [];
          return;
        }
        // What a <template> holds is no part of the page: not its links (below), nor its base,
        // canonical, robots, description, refresh or language.
        if (templateDepth > 0 && (name === 'base' || name === 'link' || name === 'meta')) return;
        switch (name) {
          case 'a':
            closeAnchor();
            if (attribs.href !== undefined && templateDepth === 0) {
              // The link's block starts here: a link without text then owns an empty segment, not the next block.
              if (otherPagesTag !== undefined) {
                // In a list of other pages: no block of the page's text.
                anchor = { href: attribs.href, segment: -1, text: '', rel: relTokens(attribs.rel), kind: 'a' };
                break;
              }
              if (pendingSpace) {
                textParts.push(BLOCK_MARK);
                segments++;
                pendingSpace = false;
              }
              anchor = { href: attribs.href, segment: segments, text: '', rel: relTokens(attribs.rel), kind: 'a' };
              if (attribs.href.trimStart().startsWith('#')) markFrom = { text: textParts.length, heading: headingBuf, headingAt: headingBuf?.length ?? 0 };
            }
            break;
          case 'area':
            if (attribs.href !== undefined && templateDepth === 0) {
              raw.push({ href: attribs.href, segment: -1, text: collapseWhitespace(attribs.alt ?? ''), rel: relTokens(attribs.rel), kind: 'area' });
            }
            break;
          case 'img':
            if (anchor !== undefined && attribs.alt) anchorBuf.push(' ', attribs.alt, ' ');
            break;
          case 'base':
            if (baseHref === undefined && attribs.href !== undefined) baseHref = attribs.href;
            break;
          case 'html':
            if (htmlLang === undefined) htmlLang = attribs.lang ?? attribs['xml:lang'];
            break;
          case 'link':
            if (!inBody && canonicalHrefs.length < 2 && attribs.href !== undefined && relTokens(attribs.rel).includes('canonical')) {
              canonicalHrefs.push(attribs.href);
            }
            break;
          case 'meta':
            onMeta(attribs);
            break;
          case 'time':
            // `<time itemprop=datePublished datetime=…>`, or HTML5's withdrawn `<time pubdate>`.
            if (templateDepth === 0 && attribs.datetime !== undefined) {
              if (attribs.itemprop !== undefined) declared.offer(`itemprop:${attribs.itemprop.trim().toLowerCase()}`, attribs.datetime);
              if (attribs.pubdate !== undefined) declared.offer('time:pubdate', attribs.datetime);
            }
            break;
          default:
            if (HEADINGS.has(name) && headingBuf === undefined && otherPagesTag === undefined) {
              headingBuf = [];
              headingTag = name;
            }
        }
      },
      ontext(data) {
        if (skipDepth > 0) {
          if (titleBuf !== undefined) titleBuf.push(data);
          if (linkedData !== undefined) {
            linkedDataChars += data.length;
            if (linkedDataChars <= MAX_LINKED_DATA_CHARS) linkedData.push(data);
          }
          return;
        }
        if (!inBody && data.trim() !== '') inBody = true;
        if (otherPagesTag !== undefined) {
          if (anchor !== undefined) anchorBuf.push(data);
          return;
        }
        emptyInline = undefined;
        if (separated) {
          separated = false;
          if (WORD_START.test(data) && WORD_END.test(textParts[textParts.length - 1] ?? '')) data = ' ' + data;
        }
        if (textChars < opts.maxTextChars) {
          if (pendingSpace) {
            textParts.push(BLOCK_MARK);
            segments++;
            pendingSpace = false;
          }
          textParts.push(data);
          textChars += data.length;
          // Counted as the collapsed text will hold it, as the share is taken of that text: counted as
          // written, a grammar's indentation made it look less code than it is (DESIGN.md listings).
          if (preDepth > 0 || fragmentDepth > 0) codeChars += collapsedLength(data);
        }
        if (anchor !== undefined) anchorBuf.push(data);
        if (headingBuf !== undefined) headingBuf.push(data);
        sectionMarks.onText(data);
        defined.onText(data);
      },
      onclosetag(name) {
        if (name === emptyInline) separated = true;
        emptyInline = undefined;
        sectionMarks.onClose(name);
        defined.onClose(name);
        parent.onClose(name);
        if ((name === 'svg' || name === 'math') && foreignDepth > 0) foreignDepth--;
        if (name === 'pre' && preDepth > 0) preDepth--;
        if (name === 'div' && fragmentDepth > 0) fragmentDepth--;
        if (name === 'template' && templateDepth > 0) templateDepth--;
        if (name === otherPagesTag && --otherPagesDepth === 0) otherPagesTag = undefined;
        if (SKIPPED.has(name)) {
          if (skipDepth > 0) skipDepth--;
          if (name === 'title' && titleBuf !== undefined) {
            title = collapseWhitespace(titleBuf.join(''));
            titleBuf = undefined;
          }
          if (name === 'script' && linkedData !== undefined) {
            // Past the page's allowance the block is cut, and a cut block is no JSON: none is read.
            if (linkedDataChars <= MAX_LINKED_DATA_CHARS) offerLinkedData(linkedData.join(''), declared);
            linkedData = undefined;
          }
        }
        if (BLOCKS.has(name)) {
          pendingSpace = true;
          if (anchor !== undefined) anchorBuf.push(' ');
          if (headingBuf !== undefined && name !== headingTag) headingBuf.push(' ');
          sectionMarks.onBreak();
        }
        if (SKIPPED.has(name)) return;
        if (name === 'a') closeAnchor();
        else if (name === headingTag && headingBuf !== undefined) {
          const h = collapseWhitespace(headingBuf.join(''));
          if (h !== '') headings.push(h);
          headingBuf = undefined;
          headingTag = '';
        }
      },
    },
    { decodeEntities: true, Tokenizer: TOKENIZER },
  );

  function onMeta(attribs: Record<string, string>): void {
    const content = attribs.content;
    if (content === undefined) return;
    // Trimmed: `<meta name=" robots " content="noindex">` is a robots meta to a careful crawler.
    const name = attribs.name?.trim().toLowerCase();
    if (attribs.itemprop !== undefined) declared.offer(`itemprop:${attribs.itemprop.trim().toLowerCase()}`, content);
    if (attribs.property !== undefined) declared.offer(`property:${attribs.property.trim().toLowerCase()}`, content);
    if (name !== undefined) {
      declared.offer(`name:${name}`, content);
      if (name === 'robots' || name === agent) robots.push(parseRobotsMeta(content));
      else if (name === 'description' && description === undefined) description = content;
      return;
    }
    const equiv = attribs['http-equiv']?.trim().toLowerCase();
    if (equiv === 'refresh') {
      const target = refreshTarget(content);
      if (target !== undefined) raw.push({ href: target, segment: -1, text: '', rel: [], kind: 'refresh' });
    } else if (equiv === 'content-language') {
      metaLang ??= content;
    } else if (attribs.property?.toLowerCase() === 'og:description') {
      ogDescription ??= content;
    }
  }

  parser.end(html);
  closeAnchor();
  if (title === undefined && titleBuf !== undefined) title = collapseWhitespace(titleBuf.join(''));

  // `<base href>` is itself resolved against the page URL; a base that is not http(s) is ignored.
  const base = (baseHref !== undefined ? canonicalizeUrl(baseHref, pageUrl) : undefined) ?? pageUrl;
  const canon: CanonicalizeOptions = opts.stripParams === undefined ? {} : { stripParams: opts.stripParams };
  const blocks = splitBlocks(textParts.join(''), opts.maxTextChars);
  const links: OutLink[] = [];
  // A base longer than any URL kept (a `<base href>` of 100 KB amplified each 5-byte href of a page into
  // a 100 KB URL: a gigabyte for 10,000 links, parsed one by one): an href relative to its path can only
  // give a longer one, and an href that replaces the path (`/x`, `//host/x`, `http://...`) resolves the
  // same against the origin alone, without parsing the base again for each link.
  const longBase = base.length > opts.maxUrlChars;
  const resolveLink = linkResolver(longBase ? `${new URL(base).origin}/` : base, canon);
  let linkChars = 0;
  for (const l of raw) {
    if (links.length >= opts.maxLinks || linkChars >= opts.maxLinkChars) break;
    const href = l.href.trim();
    if (href === '' || href.startsWith('#') || href.length > opts.maxUrlChars) continue;
    if (longBase && !href.startsWith('/') && !HAS_SCHEME.test(href)) continue;
    const url = resolveLink(href);
    if (url === undefined || url.length > opts.maxUrlChars) continue;
    linkChars += url.length + l.text.length;
    const link: OutLink = { url, text: l.text, rel: l.rel, kind: l.kind };
    const block = l.segment >= 0 ? blocks.blockOfSegment[l.segment] : undefined;
    if (block !== undefined && block >= 0) link.block = block;
    links.push(link);
  }

  const sections = sectionMarks.marks.length === 0 ? [] : sectionsFromBlocks(textParts, sectionMarks.marks, { ...blocks, textLength: blocks.text.length }, BLOCK_MARK);
  const extracted: Extracted = {
    title: title ?? '',
    description: collapseWhitespace(description ?? ogDescription ?? ''),
    headings,
    text: blocks.text,
    blockEnds: blocks.ends,
    language: primaryLanguage(htmlLang ?? '') || primaryLanguage(metaLang ?? ''),
    links,
    robots: mergeRobots(...robots),
  };
  const canonical = headCanonical(canonicalHrefs, base, canon, opts.maxUrlChars);
  if (canonical !== undefined) extracted.canonical = canonical;
  const date = declared.iso;
  if (date !== undefined) extracted.date = date;
  if (sections.length > 0) extracted.sections = sections;
  const linkBlocks = linkBlocksOf(raw, blocks);
  if (linkBlocks.length > 0) extracted.linkBlocks = linkBlocks;
  if (title !== undefined) defined.onTitle(title);
  if (defined.names.length > 0) extracted.defines = defined.names;
  const up = parentOf(parent.candidates(), base, pageUrl, canon, opts.maxUrlChars);
  if (up !== undefined) extracted.up = up;
  if (codeChars > 0 && extracted.text.length > 0) extracted.codeShare = Math.min(1, Math.round((1000 * codeChars) / extracted.text.length) / 1000);
  return extracted;
}

/** The head's rel=canonical, resolved; none when two name different pages (Google ignores them all
 * then: a page that names two canonicals names none), or when it is longer than `maxUrlChars`. */
function headCanonical(hrefs: readonly string[], base: string, canon: CanonicalizeOptions, maxUrlChars: number): string | undefined {
  const resolved = hrefs.map((href) => (href.length <= maxUrlChars ? canonicalizeUrl(href, base, canon) : undefined));
  const first = resolved[0];
  if (first === undefined || first.length > maxUrlChars) return undefined;
  return resolved.every((url) => url === first) ? first : undefined;
}

/** The first candidate (ParentLinkCollector) that resolves to another page than this one (canonical
 * URLs carry no fragment, so `page.html#top` is the page itself). */
function parentOf(hrefs: readonly string[], base: string, pageUrl: string, canon: CanonicalizeOptions, maxUrlChars: number): string | undefined {
  const self = canonicalizeUrl(pageUrl, pageUrl, canon) ?? pageUrl;
  for (const href of hrefs) {
    if (href.trim() === '' || href.trim().startsWith('#') || href.length > maxUrlChars) continue;
    const url = canonicalizeUrl(href, base, canon);
    if (url !== undefined && url.length <= maxUrlChars && url !== self) return url;
  }
  return undefined;
}

/** Share of a block's letters and digits that link text must have for it to be a link block. */
const LINK_BLOCK_SHARE = 0.8;

/**
 * The blocks whose letters and digits are nearly all (LINK_BLOCK_SHARE) inside links, links within the
 * page (`#id`) included, which `links` leaves out: a page's own contents list and breadcrumb, which the
 * indexer's header walk (indexer/templates.ts) tells from content by this, since no other page repeats
 * them. A link counts in the block it opened in.
 */
function linkBlocksOf(raw: readonly RawLink[], blocks: Blocks): number[] {
  const inLinks = new Map<number, number>();
  for (const l of raw) {
    if (l.kind !== 'a' || l.segment < 0) continue;
    const block = blocks.blockOfSegment[l.segment] ?? -1;
    if (block >= 0) inLinks.set(block, (inLinks.get(block) ?? 0) + letterCount(l.text));
  }
  const out: number[] = [];
  for (const [block, chars] of inLinks) {
    const start = block === 0 ? 0 : blocks.ends[block - 1]! + 1;
    const all = letterCount(blocks.text.slice(start, blocks.ends[block]));
    if (all > 0 && chars >= LINK_BLOCK_SHARE * all) out.push(block);
  }
  return out.sort((a, b) => a - b);
}

/** The same fields for a text/plain body: the text itself, no links, no title, no language. */
export function extractPlainText(text: string, _url: string, options: Partial<Pick<ExtractOptions, 'maxTextChars'>> = {}): Extracted {
  const max = options.maxTextChars ?? DEFAULT_EXTRACT_OPTIONS.maxTextChars;
  return {
    title: '',
    description: '',
    headings: [],
    text: collapseWhitespace(text.length > max * 2 ? text.slice(0, max * 2) : text).slice(0, max),
    language: '',
    links: [],
    robots: { index: true, follow: true },
  };
}

/** The most characters a permalink's mark has ("¶", "#", "🔗", "[#]"). */
const MAX_MARK_CHARS = 4;

/** Whether a link's text is a mark (isMark in extractHtml's decisions): a few symbols, no letter or digit. */
function isMark(text: string): boolean {
  return text !== '' && text.length <= MAX_MARK_CHARS && !/[\p{L}\p{N}]/u.test(text);
}

/** Marks a block boundary in the joined raw text: a control character pages hardly ever hold (one that does gains a boundary). */
const BLOCK_MARK = '\u0001';

interface Blocks {
  /** The text, whitespace collapsed, blocks separated by one space, at most `maxChars`. */
  text: string;
  /** End offset in `text` of each non-empty block. */
  ends: number[];
  /** Per raw segment, the index of the block it became; -1 for a segment with no text. */
  blockOfSegment: Int32Array;
}

/**
 * The raw text's segments (between BLOCK_MARKs) collapsed and joined by one space, with where each
 * non-empty one ends: the same text one collapse of the whole would give, plus its block structure.
 */
export function splitBlocks(raw: string, maxChars: number): Blocks {
  const segments = raw.split(BLOCK_MARK);
  const blockOfSegment = new Int32Array(segments.length).fill(-1);
  const kept: string[] = [];
  const ends: number[] = [];
  let length = 0;
  for (let i = 0; i < segments.length && length < maxChars; i++) {
    const s = collapseWhitespace(segments[i]!);
    if (s === '') continue;
    if (kept.length > 0) length++;
    length += s.length;
    blockOfSegment[i] = kept.length;
    kept.push(s);
    ends.push(Math.min(length, maxChars));
  }
  const text = kept.join(' ');
  return { text: text.length > maxChars ? text.slice(0, maxChars) : text, ends, blockOfSegment };
}
