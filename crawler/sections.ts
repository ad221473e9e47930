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
export function joinWithSections(parts: readonly string[], marks: readonly SectionMark[], maxChars: number): { text: string; sections: PageSection[] } {
  let text = '';
  const starts: number[] = [];
  let from = 0;
  const append = (to: number): void => {
    let piece = parts.slice(from, to).join('').replace(/[\s\u00a0]+/g, ' ');
    if (piece.startsWith(' ') && (text === '' || text.endsWith(' '))) piece = piece.slice(1);
    text += piece;
    from = to;
  };
  for (const mark of marks) {
    append(mark.part);
    // A section starts at its heading's first character, not at the space before it.
    starts.push(text.length);
    if (text.length > 0 && !text.endsWith(' ')) {
      // The heading's text may begin with a space the next piece brings: skip it when it comes.
      let k = mark.part;
      while (k < parts.length && parts[k] === '') k++;
      if (k < parts.length && /^[\s\u00a0]/.test(parts[k]!)) starts[starts.length - 1]! += 1;
    }
  }
  append(parts.length);
  const end = text.endsWith(' ') ? text.length - 1 : text.length;
  text = text.slice(0, end).slice(0, maxChars);
  const sections: PageSection[] = [];
  marks.forEach((m, i) => {
    const start = Math.min(starts[i]!, text.length);
    if (start < text.length) sections.push({ id: m.id, heading: m.heading, start });
  });
  return { text, sections };
}
