import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutLink, PageRecord } from '../shared/store/index.js';
import { blockTexts, contentHeadings, contentOffset, contentOffsets, contentTextOf, countTemplates, describedBy, detectTemplates, pageBlocksOf } from './templates.js';
import { buildLinkGraph } from './link-graph.js';
import { linkEdgesOf } from '../shared/store/index.js';

/** A page whose text is `blocks` joined as the crawler joins them, with links given by block index. */
function page(url: string, blocks: string[], links: { url: string; text: string; block?: number }[] = []): PageRecord {
  const ends: number[] = [];
  let length = 0;
  blocks.forEach((b, i) => {
    length += (i > 0 ? 1 : 0) + b.length;
    ends.push(length);
  });
  return {
    url, finalUrl: url, state: 'ok', status: 200, fetchedAt: '', contentType: 'text/html', title: '', description: '', headings: [],
    text: blocks.join(' '), blockEnds: ends, language: 'en', contentHash: '', robots: { index: true, follow: true }, truncated: false, depth: 0,
    links: links.map((l): OutLink => ({ url: l.url, text: l.text, rel: [], kind: 'a', ...(l.block !== undefined ? { block: l.block } : {}) })),
  };
}

/** A site of `n` pages, each with the same header and footer around its own text. */
function site(n: number, host = 'http://docs.test'): PageRecord[] {
  return Array.from({ length: n }, (_, i) =>
    page(`${host}/p${i}.html`, ['Prev', 'Up', 'Home', 'Next', `Unique content of page ${i} about topic ${i}`, 'Copyright 2024 The Docs Group'], [
      { url: `${host}/index.html`, text: 'Home', block: 2 },
      { url: `${host}/p${(i + 1) % n}.html`, text: 'Next', block: 3 },
      { url: `${host}/special.html`, text: 'special page', block: 4 },
    ]),
  );
}

describe('detectTemplates', () => {
  it('marks the blocks a host repeats on many pages template and keeps the rest as content', () => {
    const pages = site(40);
    const t = detectTemplates(pages).of(pages[3]!)!;
    expect(t.blocks).toEqual([true, true, true, true, false, true]);
    expect(t.contentText).toBe('Unique content of page 3 about topic 3');
  });
  it("makes a page's content text again from its template blocks alone, also for another copy of the page", () => {
    const pages = site(40);
    const templates = detectTemplates(pages);
    // The index build unpacks a page's links anew for each use: `of` gets a copy, not the counted object.
    const copy = { ...pages[3]!, links: pages[3]!.links.map((l) => ({ ...l })) };
    const t = templates.of(copy)!;
    expect(t).toMatchObject({ blocks: templates.of(pages[3]!)!.blocks, contentText: 'Unique content of page 3 about topic 3' });
    expect(contentTextOf(pages[3]!, t.blocks)).toBe(t.contentText);
    expect(contentTextOf(pages[3]!, t.blocks.map(() => false))).toBe(pages[3]!.text);
  });
  it("keeps a man page's one-line summary and synopsis, which stand between headings every page repeats", () => {
    // asciidoc's man pages: the page's own heading, NAME, "git-clean - Remove untracked files…", SYNOPSIS, …
    const man = (i: number): PageRecord => ({
      ...page(`http://docs.test/cmd${i}.html`, [`cmd${i}(1) Manual Page`, 'NAME', `cmd${i} - Does thing number ${i}`, 'SYNOPSIS', `cmd${i} [-v] <file>`, 'DESCRIPTION', `A long description of command ${i}, `.repeat(6), 'Last updated 2024-01-01']),
      headings: [`cmd${i}(1) Manual Page`, 'NAME', 'SYNOPSIS', 'DESCRIPTION'],
    });
    const pages = Array.from({ length: 30 }, (_, i) => man(i));
    expect(detectTemplates(pages).of(pages[4]!)!.blocks).toEqual([true, true, false, true, false, true, false, true]);
    // Links between two such headings are still navigation (Sphinx: "Next topic", its link, "This Page").
    const sphinx = (i: number): PageRecord => ({
      ...page(`http://docs.test/topic${i}.html`, [`Topic ${i}: a long text of its own, `.repeat(4), 'Next topic', `Topic ${i + 1}`, 'This Page', 'Show Source'], [{ url: `http://docs.test/topic${i + 1}.html`, text: `Topic ${i + 1}`, block: 2 }]),
      headings: ['Next topic', 'This Page'],
      linkBlocks: [2],
    });
    const topics = Array.from({ length: 30 }, (_, i) => sphinx(i));
    expect(detectTemplates(topics).of(topics[4]!)!.blocks).toEqual([false, true, true, true, true]);
  });
  it('finds no template on a host with fewer pages than minHostPages', () => {
    const pages = site(10);
    const t = detectTemplates(pages).of(pages[0]!)!;
    expect(t.blocks.every((b) => !b)).toBe(true);
    expect(t.contentText).toBe(pages[0]!.text);
  });
  it('leaves pages stored without blocks as they were', () => {
    const pages = site(40);
    const old = { ...pages[0]!, blockEnds: undefined };
    expect(detectTemplates([...pages, old]).of(old)).toBeUndefined();
  });
  it('extends the header and footer over short blocks next to them (a chapter name), not into the content', () => {
    const pages = site(40).map((p, i) =>
      i === 5 ? page(p.url, ['Prev', 'Up', 'Chapter 7', 'Home', 'Next', 'Short content', 'A paragraph, 1 of 2', 'Up', 'Copyright 2024 The Docs Group', 'Section 7.2']) : p,
    );
    const t = detectTemplates(pages).of(pages[5]!)!;
    // "Up" inside the content is template by count; the walk from the footer stops at the paragraph.
    expect(t.contentText).toBe('Short content A paragraph, 1 of 2');
  });
  it("does not extend the header or footer over a block that says what the page's description says", () => {
    // rustdoc: a short page ends with its one-line description after the template "Expand description".
    const short = (url: string, description: string, last: string) => ({
      ...page(url, ['Prev', 'Up', 'Home', 'Next', 'pub macro Debug($item:item) { ... }', 'A nightly-only API.', 'Copyright 2024 The Docs Group', last]),
      description,
    });
    const pages = site(40).map((p, i) =>
      i === 5
        ? short(p.url, 'Derive macro generating an impl of the trait `Debug`.', 'Derive macro generating an impl of the trait Debug.')
        : i === 6
          ? short(p.url, 'The Debug chapter: how to derive macro impls and what they generate.', 'The Debug chapter')
          : p,
    );
    const t = detectTemplates(pages);
    expect(t.of(pages[5]!)!.contentText).toBe('pub macro Debug($item:item) { ... } A nightly-only API. Derive macro generating an impl of the trait Debug.');
    // A chapter's name, short beside the description that holds it, is still footer.
    expect(t.of(pages[6]!)!.contentText).toBe('pub macro Debug($item:item) { ... } A nightly-only API.');
  });
  it("keeps a function's name and prototype, which stand between section headings every page repeats", () => {
    // gi-docgen's method page: "Method", its h1, the h4 sections "Declaration" (the C prototype under it)
    // and "Description", each repeated on every method page. The h1 and the prototype are short, with
    // template on both sides, but they are what the headings head.
    const method = (i: number): PageRecord => {
      const blocks = ['Gtk', 'Method', `Gtk Window fn${i}`, 'Declaration [src]', `void gtk_window_fn${i} ( GtkWindow* window )`, 'Description [src]', `Does thing number ${i} to a window, `.repeat(6), 'Generated by gi-docgen'];
      const p = page(`http://docs.test/method.Window.fn${i}.html`, blocks);
      const at = (k: number) => p.text.indexOf(blocks[k]!);
      return { ...p, headings: ['Gtk', 'Method', `Gtk Window fn${i}`], sections: [{ id: 'declaration', heading: 'Declaration [src]', start: at(3) }, { id: 'description', heading: 'Description [src]', start: at(5) }] };
    };
    const pages = Array.from({ length: 30 }, (_, i) => method(i));
    expect(detectTemplates(pages).of(pages[4]!)!.blocks).toEqual([true, true, false, true, false, true, false, true]);
  });

  it("goes from the header through link blocks before the page's first section, and no further", () => {
    const withNav = (url: string, blocks: string[], linkBlocks: number[], sectionAt?: number) => {
      const p = page(url, blocks);
      const start = sectionAt === undefined ? undefined : p.text.indexOf(blocks[sectionAt]!);
      return { ...p, linkBlocks, ...(start === undefined ? {} : { sections: [{ id: 'top', heading: blocks[sectionAt!]!, start }] }) };
    };
    // A contents list and a breadcrumb of the page's own, then its first heading, then content links.
    const blocks = ['Prev', 'Up', 'Home', 'Next', 'Install', 'Use it', 'Configuration reference for the server', 'Docs » Library »', 'The title', 'Some text', 'A link in the content', 'More text', 'Copyright 2024 The Docs Group'];
    const links = [4, 5, 6, 7, 10];
    const pages = site(40).map((p, i) => (i === 5 ? withNav(p.url, blocks, links, 8) : i === 6 ? withNav(p.url, blocks, links) : p));
    const t = detectTemplates(pages);
    expect(t.of(pages[5]!)!.contentText).toBe('The title Some text A link in the content More text');
    // Without a section to stop at, the links are left as they are (a hub page's list is its content).
    expect(t.of(pages[6]!)!.contentText).toBe('Install Use it Configuration reference for the server Docs » Library » The title Some text A link in the content More text');
  });
  it('goes through link blocks before the first heading of a page without sections, not past a heading that links', () => {
    // A Drupal section's "In this section" menu (seven pages, below the count) and breadcrumb, then the
    // page's h1 without an id: its snippets read "Expenses and Travel Policy Remote Working Policy …".
    const blocks = ['Prev', 'Up', 'Home', 'Next', 'Expenses policy', 'Leave policy', 'Parental policy', 'Home » Policies »', 'Leave policy', 'Some text', 'A link in the content', 'More text', 'Copyright 2024 The Docs Group'];
    const pages = site(40).map((p, i) => (i === 5 ? { ...page(p.url, blocks), headings: ['Leave policy'], linkBlocks: [4, 5, 6, 7, 10] } : p));
    expect(detectTemplates(pages).of(pages[5]!)!.contentText).toBe('Leave policy Some text A link in the content More text');
  });
  it("goes through the page's contents list after a heading every page repeats (a site banner), to its own first heading", () => {
    // Node's API pages: the banner h1 "Node.js v18.20.4 documentation" opens a section (its container's
    // id names it), then the page's own table of contents, then the page's first heading.
    const banner = 'Docs v18 documentation';
    const blocks = ['Prev', 'Up', 'Home', 'Next', banner, 'Install', 'Use it', 'Configuration reference for the server', 'The title', 'Some text', 'A link in the content', 'More text', 'Copyright 2024 The Docs Group'];
    const pages = site(40).map((p, i) => {
      if (i !== 5 && i !== 6) return page(p.url, ['Prev', 'Up', 'Home', 'Next', banner, `Unique content of page ${i} about topic ${i}`, 'Copyright 2024 The Docs Group']);
      const q = page(p.url, blocks);
      const at = (k: number) => q.text.indexOf(blocks[k]!);
      // Page 6 has no heading of its own after the banner: its links are its content, as before.
      const own = i === 5 ? [{ id: 'top', heading: 'The title', start: at(8) }] : [];
      return { ...q, linkBlocks: [5, 6, 7, 10], sections: [{ id: 'column1', heading: banner, start: at(4) }, ...own] };
    });
    const t = detectTemplates(pages);
    expect(t.of(pages[5]!)!.contentText).toBe('The title Some text A link in the content More text');
    expect(t.of(pages[6]!)!.contentText).toBe('Install Use it Configuration reference for the server The title Some text A link in the content More text');
  });
  it('walks past a definition term to the first heading: a term is no heading', () => {
    const blocks = ['Prev', 'Up', 'Home', 'Next', 'Install', 'Use it', 'Configuration reference for the server', 'Docs » Library »', 'The title', 'Some text', 'A link in the content', 'More text', 'Copyright 2024 The Docs Group'];
    const pages = site(40).map((p, i) => {
      if (i !== 5) return p;
      const q = page(p.url, blocks);
      const at = (k: number) => q.text.indexOf(blocks[k]!);
      return { ...q, linkBlocks: [4, 5, 6, 7, 10], sections: [{ id: 'use', heading: 'Use it', start: at(5), term: true as const }, { id: 'top', heading: 'The title', start: at(8) }] };
    });
    expect(detectTemplates(pages).of(pages[5]!)!.contentText).toBe('The title Some text A link in the content More text');
  });
  it("takes a page's own contents list after its content (Sphinx's sidebar), not one after its heading", () => {
    // Django's and CMake's Sphinx themes: the content, then "Table of Contents" naming the page's own
    // headings (each entry a link block), then the sidebar's and footer's template.
    const heads = ['Sending email', 'Quick example', 'Email backends', 'SMTP backend'];
    const blocks = ['Prev', 'Up', 'Home', 'Next', 'Sending email¶', 'Contents', 'Quick example', 'Email backends', 'SMTP backend', 'Django wraps smtplib in a few functions.', 'Quick example¶', 'In two lines: send_mail(...)', 'Email backends¶', 'The backend sends it.', 'SMTP backend¶', 'The default backend.', ...heads, 'Copyright 2024 The Docs Group'];
    const sections = (p: PageRecord) => heads.map((h, i) => ({ id: `s${i}`, heading: h, start: p.text.indexOf(`${h}¶`) }));
    const pages = site(40).map((p, i) => {
      if (i !== 5 && i !== 6) return p;
      const q = page(p.url, i === 5 ? blocks : blocks.slice(0, -3).concat(['Copyright 2024 The Docs Group']));
      // Page 6 lists only two of them at its end: too few to tell a contents list from two headings that link.
      return { ...q, headings: heads.map((h) => `${h}¶`), sections: sections(q), linkBlocks: i === 5 ? [6, 7, 8, 16, 17, 18, 19] : [6, 7, 8, 16, 17] };
    });
    const t = detectTemplates(pages);
    // The list after the page's heading stays (it opens the page); the one after its content goes.
    expect(t.of(pages[5]!)!.contentText).toBe('Sending email¶ Contents Quick example Email backends SMTP backend Django wraps smtplib in a few functions. Quick example¶ In two lines: send_mail(...) Email backends¶ The backend sends it. SMTP backend¶ The default backend.');
    expect(t.of(pages[6]!)!.contentText).toContain('The default backend. Sending email Quick example');
  });
  it('marks the other copy of a block the header or footer walk made template on the same page', () => {
    const pages = site(40).map((p, i) =>
      i === 5 ? page(p.url, ['Prev', 'Up', 'Chapter 7', 'Home', 'Next', 'A paragraph of text', 'Chapter 7', 'More text, longer', 'Copyright 2024 The Docs Group']) : p,
    );
    expect(detectTemplates(pages).of(pages[5]!)!.contentText).toBe('A paragraph of text More text, longer');
  });
  it('tells template links from content links, by their block or by the same link repeated', () => {
    const pages = site(40);
    const t = detectTemplates(pages).of(pages[0]!)!;
    const [home, next, special] = pages[0]!.links;
    expect(t.isTemplateLink(home!)).toBe(true);
    expect(t.isTemplateLink(next!)).toBe(true);
    // In a content block, but the same link with the same text on every page: template.
    expect(t.isTemplateLink(special!)).toBe(true);
    expect(t.isTemplateLink({ url: 'http://docs.test/x.html', text: 'x', rel: [], kind: 'a', block: 4 })).toBe(false);
  });
  it("tells a page's links by their index as it tells them by their URL and text", () => {
    // Links with and without a block, template by block, by repetition or not at all, and a host too
    // small for templates.
    const pages = [...site(40), ...site(5, 'http://small.test')].map((p, i) =>
      i % 3 === 0 ? page(p.url, blockTexts(p), [...p.links, { url: `http://docs.test/only${i}.html`, text: 'once' }, { url: 'http://docs.test/index.html', text: 'Home' }]) : p,
    );
    const summaries = pages.map((p) => pageBlocksOf(p)!);
    const counted = countTemplates(summaries);
    let template = 0;
    pages.forEach((p, i) => {
      const blocks = Uint8Array.from(counted.blocks(summaries[i]!), Number);
      const byValue = counted.linkTest(p.url, blocks);
      const byIndex = counted.pageLinkTest(summaries[i]!, blocks);
      p.links.forEach((link, k) => {
        expect(byIndex(link, k)).toBe(byValue(link));
        if (byValue(link)) template++;
      });
    });
    // Both answers occur: the comparison is not of two constant functions.
    expect(template).toBeGreaterThan(40);
    expect(template).toBeLessThan(pages.reduce((n, p) => n + p.links.length, 0));
  });
  it('blockTexts splits the text at blockEnds', () => {
    expect(blockTexts(page('http://a/', ['one two', 'three']))).toEqual(['one two', 'three']);
  });
});

describe('content links in the link graph', () => {
  it('counts the pages linking from their content apart from those linking from their template', () => {
    const pages = site(40);
    pages[7] = page(pages[7]!.url, blockTexts(pages[7]!), [
      ...pages[7]!.links,
      { url: 'http://docs.test/index.html', text: 'the overview', block: 4 },
    ]);
    const t = detectTemplates(pages);
    const edges = pages.flatMap((p) => linkEdgesOf(p, t.of(p)!.isTemplateLink));
    const g = buildLinkGraph([edges], (u) => u, 100);
    expect(g.byTarget.get('http://docs.test/index.html')).toMatchObject({ inbound: 40, contentInbound: 1 });
  });
});

describe('offsets once template blocks are left out', () => {
  // "Home | Docs" (template) "Intro text" "Nav" (template) "Body here"
  const text = 'Home | Docs Intro text Nav Body here';
  const ends = [11, 22, 26, 36];
  const template = [true, false, true, false];
  const content = 'Intro text Body here';
  it('a content offset keeps its place; a template one moves to the next content block', () => {
    expect(text.slice(0, 11)).toBe('Home | Docs');
    expect(contentOffset(ends, template, 12)).toBe(0);
    expect(content.slice(contentOffset(ends, template, 18))).toBe('text Body here');
    expect(content.slice(contentOffset(ends, template, 27))).toBe('Body here');
    expect(content.slice(contentOffset(ends, template, 23))).toBe('Body here');
    expect(contentOffset(ends, template, 3)).toBe(0);
    expect(contentOffset(ends, [false, false, false, true], 30)).toBeUndefined();
  });
  it('finds every offset of a page where walking its blocks from the start would', () => {
    // The walk contentOffsets replaced, one offset at a time.
    const walk = (ends: readonly number[], template: readonly boolean[], offset: number): number | undefined => {
      let length = 0;
      let any = false;
      let pending = false;
      for (let i = 0; i < ends.length; i++) {
        const start = i === 0 ? 0 : ends[i - 1]! + 1;
        if (template[i] === true) {
          if (offset < ends[i]! && offset >= start) pending = true;
          continue;
        }
        const at = any ? length + 1 : 0;
        if (pending) return at;
        if (offset < ends[i]!) return at + Math.max(0, offset - start);
        length = at + (ends[i]! - start);
        any = true;
      }
      return undefined;
    };
    const blocks = fc.array(fc.record({ length: fc.integer({ min: 0, max: 20 }), template: fc.boolean() }), { maxLength: 30 });
    fc.assert(
      fc.property(blocks, fc.array(fc.integer({ min: 0, max: 700 }), { maxLength: 20 }), (bs, offsets) => {
        const ends: number[] = [];
        bs.forEach((b, i) => ends.push((i === 0 ? 0 : ends[i - 1]! + 1) + b.length));
        const template = bs.map((b) => b.template);
        const offsetOf = contentOffsets(ends, template);
        for (const offset of offsets) expect(offsetOf(offset)).toBe(walk(ends, template, offset));
      }),
    );
  });
});

describe('a block that says what the description says', () => {
  // The rule written the plain way, every text through the regex: what describedBy must answer.
  const bare = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const plain = (description: string, text: string): boolean => {
    const d = bare(description);
    const t = bare(text);
    return d.length >= 20 && t.length >= 20 && (t.includes(d) || (d.includes(t) && 2 * t.length >= d.length));
  };
  it('answers as the plain rule does, short texts skipped without it', () => {
    // "İ" lowers to two characters: the one case where lower-casing lengthens a text.
    const piece = fc.constantFrom('Tokio ', 'runtime', ' for ', 'İstanbul', 'ß', '—', 'writing ', 'reliable', ' network ', 'apps', '1.0', '!', 'ǅ', '😀');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 8 }), (description, blocks) => {
        const said = describedBy(description);
        for (const block of [...blocks, description, description.slice(0, description.length >> 1)]) expect(said(block)).toBe(plain(description, block));
      }),
    );
  });
  it('answers as the plain rule does on ASCII text, which is read without the regex', () => {
    // Each edge of the ranges kept (0-9, a-z, A-Z) and the characters just outside them.
    const char = fc.constantFrom('0', '9', 'a', 'z', 'A', 'Z', '/', ':', '`', '{', '@', '[', ' ', '_', '\t', '\x7f', 'm', 'M', '5');
    const text = fc.array(char, { maxLength: 60 }).map((c) => c.join(''));
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 8 }), (description, blocks) => {
        const said = describedBy(description);
        for (const block of [...blocks, description, `x${description}`, description.slice(1)]) expect(said(block)).toBe(plain(description, block));
      }),
    );
    // A character kept or dropped alike on both sides seldom changes an answer: one alone says which it is.
    for (const c of '09azAZ/:`{@[_ -') expect(describedBy(c.repeat(20))(c.repeat(20))).toBe(/[0-9a-z]/i.test(c));
  });
});

describe('which blocks say one of the page\'s headings', () => {
  // The shape bits pageBlocksOf sets for them (templates.ts SHAPE_HEADING, SHAPE_OWN_ENTRY), and the rule
  // written the plain way: every block's letters and digits, lower-cased by the regex, against the headings'.
  const HEADING = 4;
  const OWN_ENTRY = 16;
  const bare = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  it('marks them as the plain rule does, most blocks told apart by their length alone', () => {
    // Pieces that meet each other once case, spaces and punctuation go ("Trait Implementations",
    // "trait-implementations"), non-ASCII ones ("İ" lowers to two characters) and a heading of nothing but punctuation.
    const piece = fc.constantFrom('Trait ', 'trait', 'Implementations', '-implementations', 'İ', 'i̇', 'Größe', 'GRÖSSE', '—', '::', 'Examples', 'examples!', '2', ' ', 'x');
    const text = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 10 }), fc.array(text, { maxLength: 4 }), fc.array(fc.tuple(text, fc.boolean()), { maxLength: 4 }), fc.array(fc.nat(9), { maxLength: 6 }), (blocks, headings, sections, linkBlocks) => {
        const p = { ...page('http://h/p', blocks), headings, linkBlocks: linkBlocks.filter((k) => k < blocks.length), sections: sections.map(([heading, term]) => ({ id: 'a', heading, start: 0, ...(term ? { term: true as const } : {}) })) };
        const shape = pageBlocksOf(p)!.shape;
        const said = new Set(headings.map(bare));
        const own = new Set([...said, ...sections.filter(([, term]) => !term).map(([heading]) => bare(heading))]);
        own.delete('');
        blocks.forEach((b, k) => {
          expect((shape[k]! & HEADING) !== 0).toBe(said.has(bare(b)));
          expect((shape[k]! & OWN_ENTRY) !== 0).toBe(p.linkBlocks.includes(k) && own.has(bare(b)));
        });
      }),
    );
  });
});

describe('contentHeadings', () => {
  it("leaves out a heading that only template blocks say: a sidebar widget's title matched its word on every page", () => {
    // WordPress: "Subscribe to our newsletter" and "Recent Posts" are the h2s of widgets on every page;
    // "newsletter" found all 46 pages of the probe blog, in equal order, by their headings alone.
    const texts = ['Menu', 'Growing Garlic', 'Plant cloves.', 'Recent Posts', 'Subscribe to our newsletter', 'Tags', 'Tags'];
    const blocks = [true, false, false, true, true, true, false];
    expect(contentHeadings(['Growing Garlic', 'Recent Posts', 'Subscribe to our newsletter', 'Tags', 'Elsewhere'], texts, blocks)).toEqual(['Growing Garlic', 'Tags', 'Elsewhere']);
    expect(contentHeadings(['Recent Posts'], texts, [false, false, false, false, false, false, false])).toEqual(['Recent Posts']);
  });
});
