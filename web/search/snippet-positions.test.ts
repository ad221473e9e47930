// Snippets placed by word positions (snippet-positions.ts) against the text search they replace
// (sections.ts bestSection, snippet.ts bestSnippet over the whole stored body): on long pages with
// sections and multi-byte characters, the same section is chosen and the snippet holds as many of the
// query's words.

import { describe, expect, it } from 'vitest';
import { analyze, isFoldToken, tokenize } from '../../shared/analysis/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { seededRandom } from '../../test/support/seeded-random.js';
import { parseQuery } from '../query/index.js';
import { bestSection } from './sections.js';
import { bestSnippet } from './snippet.js';
import { densestRun } from './snippet-positions.js';
import type { Places } from './sections.js';

const WORDS = ['harbour', 'café', 'straße', 'lantern', 'copper', 'meadow', 'signal', 'orchard', 'ferry', 'granite', 'the', 'of', 'and', 'bridge', 'naïve', 'winter'];
const random = seededRandom(424242);
const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
const sentence = (n: number) => Array.from({ length: n }, pick).join(' ') + '.';

interface Page {
  url: string;
  title: string;
  text: string;
  sections: { id: string; heading: string; start: number }[];
}

/** A long page: some sections, each a heading then a few hundred words. */
function page(i: number): Page {
  let text = sentence(40);
  const sections: Page['sections'] = [{ id: 'top', heading: 'Intro', start: 0 }];
  const count = 2 + Math.floor(random() * 6);
  for (let s = 0; s < count; s++) {
    const heading = `${pick()} ${pick()}`;
    text += ' ';
    sections.push({ id: `s${s}`, heading, start: text.length });
    text += `${heading} ${Array.from({ length: 6 + Math.floor(random() * 60) }, () => sentence(8)).join(' ')}`;
  }
  return { url: `http://long.test/${i}`, title: `Page ${i}`, text, sections };
}

const pages = Array.from({ length: 40 }, (_, i) => page(i));
// A page whose only match lies past the first 50,000 characters, all a text search of a result reads.
const deep = `${Array.from({ length: 1200 }, () => sentence(8)).join(' ')} The zephyr quartz lies here. ${sentence(20)}`;
pages.push({ url: 'http://long.test/deep', title: 'Deep', text: deep, sections: [] });
// A manual whose early section has an identifier's parts apart, many times, and whose section past
// those 50,000 characters holds the name itself.
const apart = `Intro ${Array.from({ length: 1000 }, () => `the prompt shows before each command runs. ${sentence(4)}`).join(' ')}`;
const manual = `${apart} Variables PROMPT_COMMAND runs before the primary prompt. ${sentence(20)}`;
pages.push({ url: 'http://long.test/manual', title: 'Manual', text: manual, sections: [{ id: 'top', heading: 'Intro', start: 0 }, { id: 'vars', heading: 'Variables', start: apart.length + 1 }] });
// A page that writes a snake_case name and a hyphenated word early, which the index also holds joined
// ("createserver", "email") without a place, and another word only past the first 150,000 characters.
const joinedEarly = `Intro Call create_server() to listen, and send e-mail. ${Array.from({ length: 3500 }, () => sentence(8)).join(' ')}`;
const joined = `${joinedEarly} The zeppelin lands here. ${sentence(20)}`;
pages.push({ url: 'http://long.test/joined', title: 'Joined', text: joined, sections: [] });
// A Sphinx page: the permalink's mark stays in the text after the heading the crawler stored without it.
const marked = `Intro ${sentence(30)} Zither tuning¶ Tune the zither before each concert. ${sentence(30)}`;
pages.push({ url: 'http://long.test/marked', title: 'Marked', text: marked, sections: [{ id: 'top', heading: 'Intro', start: 0 }, { id: 'tuning', heading: 'Zither tuning', start: marked.indexOf('Zither tuning') }] });
const engine = fixtureEngine(pages);
const queries = WORDS.filter((w) => w.length > 3).flatMap((a, i, all) => [a, `${a} ${all[(i * 7 + 3) % all.length]!}`]);

describe('snippets placed by word positions', () => {
  it('find a passage however deep in a long page it is', () => {
    expect(deep.length).toBeGreaterThan(60_000);
    const [hit] = engine().search(parseQuery('zephyr'), { offset: 0, limit: 10 }).hits;
    expect(hit?.snippet).toContain('zephyr quartz');
    expect(hit!.highlights.map(([a, b]) => hit!.snippet.slice(a, b))).toEqual(['zephyr']);
  });

  it("start a section's snippet after its heading and the permalink mark the text keeps after it", () => {
    const [hit] = engine().search(parseQuery('zither concert'), { offset: 0, limit: 10 }).hits;
    expect(hit?.section?.id).toBe('tuning');
    expect(hit!.snippet).toMatch(/^Tune the zither before each concert./);
    const doc = { body: marked, language: 'en', sections: pages.at(-1)!.sections };
    const s = bestSection(doc, new Set(analyze('zither concert', 'en').map((t) => t.token)))!;
    expect(marked.slice(s.start).trimStart().startsWith('Tune the zither')).toBe(true);
  });

  it("place an identifier where its parts stand in a row: the section holding the name itself", () => {
    expect(apart.length).toBeGreaterThan(60_000);
    const hit = engine()
      .search(parseQuery('PROMPT_COMMAND'), { offset: 0, limit: 10 })
      .hits.find((h) => h.url === 'http://long.test/manual');
    expect(hit?.section?.id).toBe('vars');
    expect(hit?.snippet).toContain('PROMPT_COMMAND runs before');
  });

  it('place a page by its other words where a query word is one the index joined and placed nowhere', () => {
    expect(joinedEarly.length).toBeGreaterThan(160_000);
    for (const q of ['createServer zeppelin', 'email zeppelin']) {
      const [hit] = engine().search(parseQuery(q), { offset: 0, limit: 10 }).hits;
      expect(hit?.url, q).toBe('http://long.test/joined');
      expect(hit!.snippet, q).toContain('zeppelin lands');
    }
  });

  it('choose the section the text search chooses, and hold as many of the query words', () => {
    let compared = 0;
    let inSections = 0;
    for (const q of queries) {
      // The words the engine highlights: the query's own tokens, and the fold token of each accented
      // word (`~cafe` of "café"), which finds the word however a page accents it.
      const tokens = new Set(analyze(q).filter((t) => !t.extra || isFoldToken(t.token)).map((t) => t.token));
      for (const hit of engine().search(parseQuery(q), { offset: 0, limit: 10 }).hits) {
        const p = pages.find((x) => x.url === hit.url)!;
        const doc = { body: p.text, language: 'en', sections: p.sections };
        const section = bestSection(doc, tokens);
        const expected = bestSnippet(section ? p.text.slice(section.start, section.end) : p.text, 'en', tokens, { maxChars: 220, scanChars: Infinity });
        expect(hit.section?.id, `${q} on ${hit.url}`).toBe(section?.id);
        const distinct = (text: string, highlights: [number, number][]) => new Set(highlights.map(([a, b]) => tokenize(text.slice(a, b))[0])).size;
        expect(distinct(hit.snippet, hit.highlights), `${q} on ${hit.url}: ${hit.snippet} / ${expected.text}`).toBe(distinct(expected.text, expected.highlights));
        // The snippet is the page's own text, ellipses aside.
        expect(p.text.includes(hit.snippet.replace(/^…|…$/g, ''))).toBe(true);
        compared++;
        if (section) inSections++;
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(inSections).toBeGreaterThan(20);
  });
});

describe('densestRun', () => {
  const tokens = ['a', 'b', 'c'];
  /** Places from (token, place) pairs, ascending; `from` and `to` cut them as placedSnippet does for a section. */
  const places = (pairs: [string, number][], from = 0, to = pairs.length): Places => ({
    at: Int32Array.from(pairs, ([, p]) => p),
    token: Uint16Array.from(pairs, ([t]) => tokens.indexOf(t)),
    from,
    to,
    tokens,
  });
  it('prefers more distinct words, then more matches, within the window', () => {
    const spans: [string, number][] = [['a', 1], ['a', 3], ['a', 5], ['b', 40], ['a', 50], ['c', 52]];
    expect(densestRun(places(spans), 0, 28)).toEqual({ first: 40, last: 52 });
    expect(densestRun(places([['a', 1], ['a', 3], ['a', 90]]), 0, 28)).toEqual({ first: 1, last: 3 });
    // Only the entries in [from, to) count: without the first and the last two, the a at 3 and 5 win.
    expect(densestRun(places(spans, 1, 4), 0, 28)).toEqual({ first: 3, last: 5 });
  });
  it('starts at `from` when there is no match', () => {
    expect(densestRun(places([]), 17, 28)).toEqual({ first: 17, last: 17 });
    expect(densestRun(places([['a', 1]], 1, 1), 17, 28)).toEqual({ first: 17, last: 17 });
  });
});

describe('a heading over subheadings only', () => {
  const text = 'githooks Programs Git runs at points of its work. HOOKS applypatch-msg This hook is invoked by git am with the message file. pre-commit This hook is invoked by git commit before the message.';
  const at = (t: string) => text.indexOf(t);
  const sections = [
    { id: 'top', heading: 'githooks', start: 0 },
    { id: 'hooks', heading: 'HOOKS', start: at('HOOKS') },
    { id: 'applypatch', heading: 'applypatch-msg', start: at('applypatch') },
    { id: 'pre-commit', heading: 'pre-commit', start: at('pre-commit') },
  ];
  const pages = [
    { url: 'http://docs.test/githooks', title: 'githooks', text, sections },
    ...Array.from({ length: 6 }, (_, i) => ({ url: `http://docs.test/other-${i}`, title: `Other ${i}`, text: `Other page ${i} of the docs.` })),
  ];
  const engine = fixtureEngine(pages);
  it('is linked to with a snippet of what it heads, not an empty one', () => {
    const hit = engine().search(parseQuery('hooks'), { offset: 0, limit: 10 }).hits[0]!;
    expect(hit.section?.id).toBe('hooks');
    expect(hit.snippet).toContain('applypatch-msg This hook is invoked by git am');
  });
});

describe('a name typed alone, defined by a term that qualifies it', () => {
  // Django's model field reference (Sphinx): `ForeignKey.on_delete` is a term of the "Arguments"
  // section, and `ModelAdmin.get_list_display_links(request, list_display)` names `list_display` as
  // a parameter before the term that defines it.
  const text = 'Model field reference Fields of models. Arguments ForeignKey accepts other arguments, on_delete first: on_delete=models.CASCADE. ForeignKey.on_delete When an object referenced by a ForeignKey is deleted, Django emulates the SQL constraint. ModelAdmin.get_list_display_links(request, list_display) Returns which fields in list_display link. ModelAdmin.list_display Set list_display to control which fields the change list displays.';
  const at = (t: string) => text.indexOf(t);
  const sections = [
    { id: 'top', heading: 'Model field reference', start: 0 },
    { id: 'arguments', heading: 'Arguments', start: at('Arguments') },
    { id: 'on_delete', heading: 'ForeignKey.on_delete', start: at('ForeignKey.on_delete'), term: true as const },
    { id: 'links', heading: 'ModelAdmin.get_list_display_links(request, list_display)', start: at('ModelAdmin.get_list'), term: true as const },
    { id: 'list_display', heading: 'ModelAdmin.list_display', start: at('ModelAdmin.list_display '), term: true as const },
  ];
  const pages = [
    { url: 'http://docs.test/fields', title: 'Model field reference', text, sections },
    ...Array.from({ length: 6 }, (_, i) => ({ url: `http://docs.test/other-${i}`, title: `Other ${i}`, text: `Other page ${i} of the docs.` })),
  ];
  const engine = fixtureEngine(pages);
  it('links to that term, as it does for the qualified name', () => {
    for (const [q, id] of [['on_delete', 'on_delete'], ['list_display', 'list_display'], ['ForeignKey.on_delete', 'on_delete']]) {
      expect(engine().search(parseQuery(q!), { offset: 0, limit: 10 }).hits[0]!.section?.id, q).toBe(id);
    }
  });
});

describe('words matched through accent or width folding', () => {
  // A probe's page: the folded words between two runs of filler, on pages of every language; one with
  // more than the 50,000 characters a text search of a result reads before them; a short one.
  const filler = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word}${i % 50}`).join(' ');
  const folded = 'The résumé of the café, naïve grüße Ｆｕｌｌｗｉｄｔｈ text.';
  const text = `${filler('alpha', 3000)} ${folded} ${filler('omega', 3000)}`;
  const deepText = `${filler('beta', 9000)} ${folded} ${filler('gamma', 100)}`;
  const pages = [
    { url: 'http://docs.test/en', title: 'English', text, language: 'en' },
    { url: 'http://docs.test/untagged', title: 'Untagged', text, language: '' },
    { url: 'http://docs.test/fr', title: 'Français', text, language: 'fr' },
    { url: 'http://docs.test/deep', title: 'Deep', text: deepText, language: 'en' },
    { url: 'http://docs.test/short', title: 'Short', text: 'latinoneword café naïve', language: 'en' },
  ];
  const engine = fixtureEngine(pages);

  it('take the snippet around the folded word and highlight it, on pages of every language and however deep', () => {
    expect(deepText.indexOf('résumé')).toBeGreaterThan(60_000);
    const shown: Record<string, string> = { resume: 'résumé', cafe: 'café', naive: 'naïve', grusse: 'grüße', fullwidth: 'Ｆｕｌｌｗｉｄｔｈ' };
    for (const [q, word] of Object.entries(shown)) {
      const hits = engine().search(parseQuery(q), { offset: 0, limit: 10 }).hits;
      expect(hits.map((h) => h.url).sort(), q).toEqual(pages.filter((p) => p.text.includes(word)).map((p) => p.url).sort());
      for (const hit of hits) {
        expect(hit.snippet, `${q} on ${hit.url}`).toContain(word);
        expect(hit.highlights.map(([a, b]) => hit.snippet.slice(a, b)), `${q} on ${hit.url}`).toEqual([word]);
      }
    }
  });
});
