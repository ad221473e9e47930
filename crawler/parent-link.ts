// Where a page sits in its site: the page one level up, as the page itself names it. A section page of
// a manual is often titled only "Introduction" or "Quick Setup" (PostgreSQL's "70.1. Introduction" is
// the GIN chapter's), and what it is about is said one level up. Three ways pages say it, in order of
// how plainly they mean it:
// - `<link rel="up" href>` in the head (texinfo, HTML 4's link types);
// - a link marked as the way up: `<a rel="up">`, or `<a accesskey="u">`, the "Up" of DocBook's and
//   Sphinx's navigation bars (Sphinx writes "U");
// - a breadcrumb trail (`aria-label` containing "breadcrumb" on a nav, list or div, as Bootstrap,
//   Docusaurus, Docsy and GOV.UK write it): its last link that is not the page itself.
// Pure, fed by extract.ts's single parse.

/** Elements that may hold a breadcrumb trail (their `aria-label` is read). */
export const TRAIL_HOLDERS: readonly string[] = ['nav', 'ol', 'ul', 'div'];

const TRAIL_LABEL = /breadcrumb/i;

/** A trail's links kept, its last ones: a trail is a few links, a hostile page's "trail" may be a million. */
const TRAIL_LINKS_KEPT = 16;

export class ParentLinkCollector {
  private headUp: string | undefined;
  private markedUp: string | undefined;
  /** The open trail's element name and how many of that name are open inside it, once one opened. */
  private trailTag = '';
  private trailDepth = 0;
  private readonly trail: string[] = [];
  private trailDone = false;

  onOpen(name: string, attribs: Readonly<Record<string, string>>): void {
    if (this.trailDepth > 0 && name === this.trailTag) this.trailDepth++;
    switch (name) {
      case 'link':
        if (this.headUp === undefined && attribs.href !== undefined && hasUp(attribs.rel)) this.headUp = attribs.href;
        return;
      case 'a':
        if (attribs.href === undefined) return;
        if (this.markedUp === undefined && (hasUp(attribs.rel) || attribs.accesskey?.toLowerCase() === 'u')) this.markedUp = attribs.href;
        if (this.trailDepth > 0) {
          if (this.trail.length === TRAIL_LINKS_KEPT) this.trail.shift();
          this.trail.push(attribs.href);
        }
        return;
      default: {
        const label = attribs['aria-label'];
        if (label !== undefined && !this.trailDone && this.trailDepth === 0 && TRAIL_HOLDERS.includes(name) && TRAIL_LABEL.test(label)) {
          this.trailTag = name;
          this.trailDepth = 1;
        }
      }
    }
  }

  onClose(name: string): void {
    if (this.trailDepth > 0 && name === this.trailTag && --this.trailDepth === 0) this.trailDone = true;
  }

  /** The hrefs that may name the parent, the plainest first; a trail's from its end. The caller takes
   * the first that resolves to another page. */
  candidates(): string[] {
    const out: string[] = [];
    if (this.headUp !== undefined) out.push(this.headUp);
    if (this.markedUp !== undefined) out.push(this.markedUp);
    for (let i = this.trail.length - 1; i >= 0; i--) out.push(this.trail[i]!);
    return out;
  }
}

function hasUp(rel: string | undefined): boolean {
  return rel !== undefined && rel.toLowerCase().split(/\s+/).includes('up');
}
