// A page's context: the title of the page one level up in its site (PageRecord.up, crawler/parent-link.ts),
// indexed as one more heading of the page. A manual's section page is often titled only "Introduction"
// or "Quick Setup"; the chapter it opens says what it is about ("GIN Indexes"), as a breadcrumb shows a
// reader and as DocSearch ranks a page's chapter (its `lvl0`) beside its own title. Pure.

/** What deciding a page's context reads of a page. */
export interface ContextPage {
  title: string;
  /** The parent, as the page named it and resolved to the indexed page it stands for. */
  up: string | undefined;
}

/**
 * The context of `url`: its parent's title, numbering and the site's title affixes taken off, when the
 * parent is another indexed page of the same host that has a parent itself. The top of a hierarchy is
 * left out: its title names the site or the manual ("PostgreSQL 15.20 Documentation"), which every
 * chapter would then repeat. Undefined when there is none, or when it says nothing the page's own
 * title does not.
 */
export function parentContext(url: string, page: ContextPage, pageOf: (url: string) => ContextPage | undefined, hostOf: (url: string) => string, clean: (title: string) => string): string | undefined {
  const up = page.up;
  if (up === undefined || up === url || hostOf(up) !== hostOf(url)) return undefined;
  const parent = pageOf(up);
  if (parent === undefined || parent.up === undefined || parent.up === up) return undefined;
  const context = contextTitle(clean(parent.title));
  if (context === '') return undefined;
  const own = new Set(wordsOf(clean(page.title)));
  return wordsOf(context).every((w) => own.has(w)) ? undefined : context;
}

/** Lower-cased runs of letters and digits: enough to tell whether a title says a context's words. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A parent's title without the numbering manuals put before titles ("Chapter 70. GIN Indexes" ->
 * "GIN Indexes", "F.3. btree_gin" -> "btree_gin", "Part VII. Internals" -> "Internals"), which every
 * child would otherwise repeat as words. A title that only starts like one keeps it ("A Brief History"). */
export function contextTitle(title: string): string {
  const whole = title.trim();
  const rest = whole.replace(/^(?:chapter|part|appendix|section)\s+/i, '');
  const numbered = /^(?:\d+|[IVXLCDM]+|[A-Z])(?:\.\d+)*\.\s+(?=\S)/.exec(rest);
  return numbered === null ? whole : rest.slice(numbered[0].length);
}
