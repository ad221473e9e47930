// Sections of a page for extract.ts: where each heading that can be linked to (`page#id`) starts in the
// page's text, so a search result can point at the part of a long page that answers (issue 14 item 3).
//
// A heading is linkable when it carries an `id`, or when an element with an `id` (or an `<a name>`)
// opens right before it or at its start with no text in between but navigation links: Sphinx wraps
// headings in `<section id>`, DocBook (PostgreSQL) in `<div class="sect1" id>`, rustdoc puts the id on
// the heading or its `<section>`, older pages write `<a name="x"></a><h2>`, and texinfo (every GNU
// manual) `<div class="section" id="x">` then a "Next: ... Up: ..." bar, then the heading. A container's
// id names its first heading only. h1 to h6 split a page (h4: rustdoc's methods; h5: the entries of a man page
// Sphinx renders, Varnish's varnishd parameters and varnish-cli commands under h3 DESCRIPTION and an h4 list;
// such an entry is marked as a term is, so the indexer does not count its heading as a heading word of the
// page: counted so, 109 parameter names lengthened varnishd.html's headings field and a probe of the names
// typed alone lost one first place of 138), and so does a definition
// term that can be linked to (`<dt id>`, or `<a name>` or texinfo's empty `<span id>` right before it): Sphinx's `<dt id="str.split">`,
// PostgreSQL's `<dt id="GUC-MAX-CONNECTIONS">`, SQLite's `<a name="coalesce"></a><dt>coalesce(X,Y,...)`
// each open the part of a long page that documents one name, and a result for the name links there
// (its snippet from there) instead of to the heading of the whole list. A term takes no container's id:
// `<div id="content"><dl><dt>` is no name of the term. A permalink inside a
// heading (an anchor linking to the heading, Node.js `<a href="#x" id="x">#</a>` at its end, Sphinx's
// "¶") names it too, and its mark is left out of the heading: results showed "os.path¶". A permalink
// to an id opened since the previous heading (a `<span id>` included) is the link the site itself gives
// the heading, and names it before a container's id: Django's Sphinx writes `<div class="section"
// id="s-foreignkey"><span id="foreignkey"></span><h3>ForeignKey<a href="#foreignkey">¶</a>`, and
// results showed "ForeignKey¶" linking to `#s-foreignkey`.
// A `<div>` whose class calls it a heading (a class part `heading`: RDoc Darkfish's `method-heading`, the
// call sequence of each method of Ruby's reference) is an entry too when it opens right inside an element
// with an id, nothing between (`<div id="method-i-gsub" class="method-detail"><div class="method-heading">`):
// Darkfish writes no h-element per method, and a result for "String#gsub" linked to the heading of all
// "Public Instance Methods" of String (6 of 45 first results on a judged fragment of the Ruby docs). One
// without an id right before it (Bootstrap's `panel-heading`, the second call sequence of a method) is text.
//
// The collector only remembers which text part each heading opens at; offsets into the collapsed text
// are worked out once at the end (sectionsFromBlocks), in one pass over the parts and their blocks.

import type { PageSection } from '../shared/store/index.js';
import { visibleCount } from './char-count.js';

const SECTION_HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt']);
/** A class that calls a `<div>` a heading: a class whose last part is `heading` (`method-heading`, `heading`). */
const HEADING_CLASS = /(?:^|\s)(?:[\w-]*[-_])?heading(?=\s|$)/i;
/** Elements whose `id` (or, for `a`, `name`) names the heading that follows them, and the headings. */
export const ID_CARRIERS = ['a', 'div', 'section', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt'] as const;

const CARRIERS: ReadonlySet<string> = new Set(ID_CARRIERS);

/** A section heading as the parser saw it: `part` is the index into extract.ts's text parts where it opens. */
export interface SectionMark {
  id: string;
  heading: string;
  part: number;
  /** A definition term (`<dt>`), not a heading. */
  term?: true;
}

/** Elements whose `id` names the first heading inside them. */
const CONTAINERS = new Set(['div', 'section', 'article']);

/** Text since an id opened: visible characters outside links and inside them. */
interface TextSince {
  plain: number;
  link: number;
}

/**
 * How much navigation may stand between an id and its heading: the text since the id opened is
 * at least half link text ("Next: Shell Scripts, Previous: Redirections, Up: Basic Shell Features
 * [Contents][Index]", which texinfo writes between each section's `<div id>` and its heading) and
 * short. Any other visible text separates them: `<div id="wrap"><p>Some text</p><h2>` is not "wrap".
 */
const NAVIGATION_MAX_CHARS = 400;

export class SectionCollector {
  readonly marks: SectionMark[] = [];
  /** The last id opened outside a heading, by what element, and the text counts when it opened: the next
   * heading may take it. */
  private pending: { id: string; tag: string; at: TextSince } | undefined;
  /** The first `<span id>` of a run with no text between, and the text counts when it opened: a term
   * right after it takes its id (texinfo's index anchors). */
  private spanBefore: { id: string; at: TextSince } | undefined;
  /** Open containers (CONTAINERS), innermost last: their id, if any, names their first heading. */
  private readonly containers: { name: string; id: string | undefined; at: TextSince; headed: boolean }[] = [];
  /** Per open `a`, whether it is a link (has href). */
  private readonly anchors: boolean[] = [];
  private links = 0;
  private readonly text: TextSince = { plain: 0, link: 0 };
  /** The heading being read, its text in `buf`. A link within the page whose text is a mark ("#", "¶",
   * no letters or digits) is no heading text; words there are (Sphinx's back-link to the contents). */
  private open:
    | {
        id: string | undefined;
        tag: string;
        part: number;
        buf: string[];
        /** A `<div>` read as a heading (HEADING_CLASS): an entry, as a term is; `depth` counts the divs open inside it. */
        entry?: { depth: number };
        /** The open link within the page: its depth among open `a`s, where its text starts in `buf`, and
         * the id it names the heading by if it is a permalink. */
        mark?: { depth: number; from: number; target: string | undefined };
        /** Ranges of `buf` that were marks, left out of the heading. */
        marks?: [number, number][];
        permalink?: string;
      }
    | undefined;
  private readonly seen = new Set<string>();
  /** Ids opened since the last heading closed (any element, spans too): what a permalink may point at. */
  private readonly recentIds = new Set<string>();

  /** An element opened; `part` is the number of text parts so far. Elements not in ID_CARRIERS (a
   * `span`) only count as permalink targets. */
  onOpen(name: string, attribs: Record<string, string>, part: number): void {
    const id = attribs.id ?? (name === 'a' ? attribs.name : undefined);
    if (id) this.recentIds.add(id);
    // texinfo (every GNU manual) writes a term's index anchors as empty spans before its `<dt>`, at
    // the end of the entry before: `<span id="index-typeset"></span></dd><dt>typeset ...`. The first
    // of such a run names the term, as an `<a name>` right before it would.
    if (name === 'span' && id && (this.spanBefore === undefined || !this.nothingSince(this.spanBefore.at))) this.spanBefore = { id, at: { ...this.text } };
    if (!CARRIERS.has(name)) return;
    if (CONTAINERS.has(name)) this.containers.push({ name, id: id || undefined, at: { ...this.text }, headed: false });
    if (name === 'a') {
      const link = attribs.href !== undefined;
      this.anchors.push(link);
      if (link) this.links++;
    }
    if (this.open !== undefined) {
      if (this.open.entry !== undefined && name === this.open.tag) this.open.entry.depth++;
      // `<h2><a id="x"></a>Title</h2>`: an anchor at the heading's start names it; so does a permalink
      // anywhere in it, an anchor linking to itself (Node.js: `<h3>Title<span><a href="#x" id="x">#</a>`).
      const selfLink = name === 'a' && id !== undefined && id !== '' && attribs.href === `#${id}`;
      if (this.open.id === undefined && id && (selfLink || this.open.buf.every((t) => t.trim() === ''))) this.open.id = id;
      // A link within the page, while no other is open: a mark if its text turns out to be one.
      if (name === 'a' && this.open.mark === undefined && attribs.href?.startsWith('#')) {
        const target = attribs.href.slice(1);
        const names = target === this.open.id || (target !== '' && this.recentIds.has(target) && !this.seen.has(target));
        this.open.mark = { depth: this.anchors.length, from: this.open.buf.length, target: names ? target : undefined };
      }
      return;
    }
    if (SECTION_HEADINGS.has(name)) {
      const term = name === 'dt';
      this.open = { id: id || this.idBefore(term), tag: name, part, buf: [] };
      if (term && this.open.id === undefined) return;
      this.pending = undefined;
      // A container's id names its first heading only, whoever names that heading.
      if (!term) for (const c of this.containers) c.headed = true;
    } else if (name === 'div' && attribs.class !== undefined && HEADING_CLASS.test(attribs.class)) {
      const named = id || (this.pending !== undefined && this.nothingSince(this.pending.at) ? this.pending.id : undefined);
      if (named === undefined) return;
      this.open = { id: named, tag: name, part, buf: [], entry: { depth: 0 } };
      this.pending = undefined;
      for (const c of this.containers) c.headed = true;
    } else if (id) {
      this.pending = { id, tag: name, at: { ...this.text } };
    }
  }

  onText(data: string): void {
    if (this.open !== undefined) {
      this.open.buf.push(data);
      // A term's text is the page's text to the headings around it, as before terms were sections.
      if (this.open.tag !== 'dt' && this.open.entry === undefined) return;
    }
    const visible = visibleCount(data);
    if (this.links > 0) this.text.link += visible;
    else this.text.plain += visible;
  }

  /** A block boundary (`<br>`, `<p>`) in the text: a space in a heading, as in the page's text
   * ("substr(X,Y,Z)<br>substr(X,Y)" is two names). */
  onBreak(): void {
    this.open?.buf.push(' ');
  }

  onClose(name: string): void {
    if (name === 'a' && this.open?.mark?.depth === this.anchors.length) {
      const { from, target } = this.open.mark;
      this.open.mark = undefined;
      const text = this.open.buf.slice(from).join('');
      if (text.trim() !== '' && !/[\p{L}\p{N}]/u.test(text)) {
        (this.open.marks ??= []).push([from, this.open.buf.length]);
        if (target !== undefined) this.open.permalink ??= target;
      }
    }
    if (name === 'a' && this.anchors.length > 0 && this.anchors.pop()) this.links--;
    if (CONTAINERS.has(name)) {
      let i = this.containers.length - 1;
      while (i >= 0 && this.containers[i]!.name !== name) i--;
      if (i >= 0) this.containers.length = i;
    }
    if (this.open === undefined || name !== this.open.tag) return;
    if (this.open.entry !== undefined && this.open.entry.depth > 0) {
      this.open.entry.depth--;
      return;
    }
    const { id: ownId, part, buf, marks, permalink, tag, entry } = this.open;
    this.open = undefined;
    this.recentIds.clear();
    const text = marks === undefined ? buf : buf.filter((_, i) => !marks.some(([from, to]) => i >= from && i < to));
    const id = permalink ?? ownId;
    const heading = text.join('').replace(/[\s\u00a0]+/g, ' ').trim();
    if (id === undefined || id === '' || heading === '' || this.seen.has(id)) return;
    this.seen.add(id);
    // h5 and h6 are entries, as terms are: linked to, but not heading words of the page (below).
    this.marks.push(tag === 'dt' || tag === 'h5' || tag === 'h6' || entry !== undefined ? { id, heading, part, term: true } : { id, heading, part });
  }

  /** The id a heading opening now takes from before it: the pending id, else the innermost open
   * container's that has had no heading, each only across navigation (NAVIGATION_MAX_CHARS). A
   * definition term (`term`) takes only an anchor's, with no text between. */
  private idBefore(term: boolean): string | undefined {
    if (term) {
      if (this.pending?.tag === 'a' && this.nothingSince(this.pending.at)) return this.pending.id;
      return this.spanBefore !== undefined && this.nothingSince(this.spanBefore.at) ? this.spanBefore.id : undefined;
    }
    if (this.pending !== undefined && this.onlyNavigationSince(this.pending.at)) return this.pending.id;
    for (let i = this.containers.length - 1; i >= 0; i--) {
      const c = this.containers[i]!;
      if (c.id === undefined || c.headed) continue;
      return this.onlyNavigationSince(c.at) ? c.id : undefined;
    }
    return undefined;
  }

  private onlyNavigationSince(at: TextSince): boolean {
    const plain = this.text.plain - at.plain;
    const link = this.text.link - at.link;
    return plain === 0 || (plain + link <= NAVIGATION_MAX_CHARS && plain <= link);
  }

  private nothingSince(at: TextSince): boolean {
    return this.text.plain === at.plain && this.text.link === at.link;
  }
}

/**
 * The page text (exactly what collapsing whitespace over all the parts and cutting at `maxChars` gives)
 * and each section's start offset in it. Sections whose start falls beyond the cut are left out.
 */
/** Where the blocks of the page text are (crawler/extract.ts splitBlocks): per raw segment its block
 * (-1: no text), and each block's end offset in the text. */
export interface BlockLayout {
  blockOfSegment: Int32Array;
  ends: readonly number[];
  textLength: number;
}

/**
 * The sections, from where each heading opened among the raw text parts (`marks`) and how the parts
 * became blocks: a heading starts a block (extract.ts marks a block boundary before it with
 * `blockMark`, pushed with the first text after it), so a section starts where the first block with
 * text at or after its mark starts. Sections past the end of the (cut) text are dropped.
 */
export function sectionsFromBlocks(parts: readonly string[], marks: readonly SectionMark[], layout: BlockLayout, blockMark: string): PageSection[] {
  const sections: PageSection[] = [];
  let segment = 0;
  let part = 0;
  let textBefore = false;
  for (const mark of marks) {
    for (; part < mark.part && part < parts.length; part++) {
      if (parts[part] === blockMark) segment++;
      else if (!textBefore && /[^\s\u00a0]/.test(parts[part]!)) textBefore = true;
    }
    // The boundary of the heading's own block comes just after the mark, with its first text.
    let s = segment;
    let boundary = !textBefore;
    for (let j = mark.part; j < parts.length && !/[^\s\u00a0]/.test(parts[j]!.replaceAll(blockMark, '')); j++) {
      if (parts[j] === blockMark) {
        s++;
        boundary = true;
      }
    }
    // No boundary: the heading's text was cut off with the page text, or does not start a block.
    if (!boundary) continue;
    while (s < layout.blockOfSegment.length && layout.blockOfSegment[s]! < 0) s++;
    if (s >= layout.blockOfSegment.length) continue;
    const block = layout.blockOfSegment[s]!;
    const start = block === 0 ? 0 : layout.ends[block - 1]! + 1;
    if (start < layout.textLength) sections.push(mark.term ? { id: mark.id, heading: mark.heading, start, term: true } : { id: mark.id, heading: mark.heading, start });
  }
  return sections;
}
