// Sections of a page for extract.ts: where each heading that can be linked to (`page#id`) starts in the
// page's text, so a search result can point at the part of a long page that answers (issue 14 item 3).
//
// A heading is linkable when it carries an `id`, or when an element with an `id` (or an `<a name>`)
// opens right before it or at its start with no text in between: Sphinx wraps headings in
// `<section id>`, DocBook (PostgreSQL) in `<div class="sect1" id>`, rustdoc puts the id on the heading or
// its `<section>`, older pages write `<a name="x"></a><h2>`. h1 to h4 split a page (h4: rustdoc's methods).
//
// The collector only remembers which text part each heading opens at; offsets into the collapsed text
// are worked out once at the end (joinWithSections), in one pass over the parts.

import type { PageSection } from '../shared/store/index.js';

const SECTION_HEADINGS = new Set(['h1', 'h2', 'h3', 'h4']);
/** Elements whose `id` (or, for `a`, `name`) names the heading that follows them. */
export const ID_CARRIERS = ['a', 'div', 'section', 'article', 'h1', 'h2', 'h3', 'h4'] as const;

/** A section heading as the parser saw it: `part` is the index into extract.ts's text parts where it opens. */
export interface SectionMark {
  id: string;
  heading: string;
  part: number;
}

export class SectionCollector {
  readonly marks: SectionMark[] = [];
  /** An id opened with no visible text since: the next heading takes it. */
  private pendingId: string | undefined;
  private open: { id: string | undefined; tag: string; part: number; buf: string[] } | undefined;
  private readonly seen = new Set<string>();

  /** An element opened; `part` is the number of text parts so far. */
  onOpen(name: string, attribs: Record<string, string>, part: number): void {
    const id = attribs.id ?? (name === 'a' ? attribs.name : undefined);
    if (this.open !== undefined) {
      // `<h2><a id="x"></a>Title</h2>`: an anchor at the heading's start names it.
      if (this.open.id === undefined && id && this.open.buf.every((t) => t.trim() === '')) this.open.id = id;
      return;
    }
    if (SECTION_HEADINGS.has(name)) {
      this.open = { id: id || this.pendingId, tag: name, part, buf: [] };
      this.pendingId = undefined;
    } else if (id) {
      this.pendingId = id;
    }
  }

  onText(data: string): void {
    if (this.open !== undefined) this.open.buf.push(data);
    else if (this.pendingId !== undefined && data.trim() !== '') this.pendingId = undefined;
  }

  onClose(name: string): void {
    if (this.open === undefined || name !== this.open.tag) return;
    const { id, part, buf } = this.open;
    this.open = undefined;
    const heading = buf.join('').replace(/[\s\u00a0]+/g, ' ').trim();
    if (id === undefined || id === '' || heading === '' || this.seen.has(id)) return;
    this.seen.add(id);
    this.marks.push({ id, heading, part });
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
    if (start < layout.textLength) sections.push({ id: mark.id, heading: mark.heading, start });
  }
  return sections;
}
