import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTypeahead } from '../../indexer/page-typeahead.js';
import { decodeTypeahead, encodeTypeahead, LEGACY_TYPEAHEAD_FILE, TYPEAHEAD_FILE, typeaheadTypedEncode, type IndexGeneration } from '../../shared/index-format/index.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { loadPageTypeahead, openPageTypeahead } from './page-typeahead.js';
import { sectionUrl } from './sections.js';

describe('page typeahead (flexsearch, encoded by our analyzer)', () => {
  const engine = fixtureEngine([
    { url: 'http://d/iter', title: 'Iterator in std::iter', text: 'Iterators yield items.' },
    { url: 'http://d/run', title: 'Running the crawler', text: 'How to run it.' },
    { url: 'http://d/zh', title: '搜索引擎入门', text: '搜索引擎', language: 'zh' },
    { url: 'http://d/none', title: 'Gears and sprockets', text: 'Nothing about iteration here.' },
  ]);

  it('offers pages by a prefix of a title word, by a stemmed form, by CJK characters, and needs every word', () => {
    const urls = (q: string) => engine().suggestPages(q, 5).map((p) => p.url);
    expect(urls('iter')).toEqual(['http://d/iter']);
    expect(engine().suggestPages('iter', 5)[0]).toEqual({ title: 'Iterator in std::iter', url: 'http://d/iter' });
    expect(urls('runs')).toEqual(['http://d/run']); // runs -> run, the stem "Running" was indexed under
    expect(urls('搜索')).toEqual(['http://d/zh']);
    expect(urls('gears sprock')).toEqual(['http://d/none']);
    expect(urls('gears iter')).toEqual([]);
    expect(urls('   ')).toEqual([]);
  });

  it('offers a section by its heading, linking url#id, once per page', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    try {
      const docs = [
        { title: 'Configuration', sections: [{ id: 'timeouts', heading: 'Request timeouts', start: 0 }, { id: 'retries', heading: 'Retries and timeouts', start: 10 }] },
        { title: 'Timeouts FAQ', sections: [] },
      ];
      await writeFile(join(dir, TYPEAHEAD_FILE), encodeTypeahead(buildTypeahead(docs)));
      const gen = { dir, docs: { url: ['http://d/config', 'http://d/faq'], title: ['Configuration', 'Timeouts FAQ'] } } as unknown as IndexGeneration;
      const found = loadPageTypeahead(gen)('timeo', 5);
      expect(found).toHaveLength(2);
      expect(found).toContainEqual({ title: 'Timeouts FAQ', url: 'http://d/faq' });
      expect(found.find((p) => p.url.startsWith('http://d/config#'))).toMatchObject({ title: 'Configuration', heading: expect.stringMatching(/timeouts/i) as unknown });
      // A generation built before the typeahead existed offers nothing.
      expect(loadPageTypeahead({ ...gen, dir: join(dir, 'missing') })('timeo', 5)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('links a section as /api/search does: its id percent-encoded in the fragment, a hostile id inert', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    try {
      const id = '"><img src=x onerror=alert(9)>';
      const docs = [{ title: 'Gallery', sections: [{ id, heading: 'Timeouts explained', start: 0 }] }];
      await writeFile(join(dir, TYPEAHEAD_FILE), encodeTypeahead(buildTypeahead(docs)));
      const gen = { dir, docs: { url: ['http://d/page'], title: ['Gallery'] } } as unknown as IndexGeneration;
      const [found] = loadPageTypeahead(gen)('timeo', 5);
      expect(found).toEqual({ title: 'Gallery', url: 'http://d/page#%22%3E%3Cimg%20src=x%20onerror=alert(9)%3E', heading: 'Timeouts explained' });
      expect(found!.url).toBe(sectionUrl('http://d/page', id));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the last word as typed, not stemmed nor dropped as a stopword, and fills with its stem', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    try {
      // "res" stems to "re", a prefix of "regression" as of "results"; "con" is a stopword (Spanish).
      const titles = ['Regression loss', 'Results on the loss', 'Pathway analysis', 'Pathway control', 'Cells in culture'];
      await writeFile(join(dir, TYPEAHEAD_FILE), encodeTypeahead(buildTypeahead(titles.map((title) => ({ title })))));
      const gen = { dir, docs: { url: titles.map((_, i) => `http://d/${i}`), title: titles } } as unknown as IndexGeneration;
      const lookup = loadPageTypeahead(gen);
      const titlesOf = (q: string, limit: number) => lookup(q, limit).map((p) => p.title);
      expect(typeaheadTypedEncode('loss res')).toEqual(['loss', 'res']);
      expect(titlesOf('loss res', 1)).toEqual(['Results on the loss']);
      // Fewer than asked for as typed: the stem's pages follow.
      expect(titlesOf('loss res', 5)).toEqual(['Results on the loss', 'Regression loss']);
      expect(typeaheadTypedEncode('pathway con')).toEqual(['pathwai', 'con']);
      expect(titlesOf('pathway con', 1)).toEqual(['Pathway control']);
      // A finished word (a space after it) and a whole word the stem differs from ask with stems.
      expect(typeaheadTypedEncode('cells ')).toBeUndefined();
      expect(titlesOf('cells', 5)).toEqual(['Cells in culture']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('offers a page for a query of more distinct words than the intersection counts in a byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    try {
      const letter = (n: number) => String.fromCharCode(97 + n);
      const words = Array.from({ length: 300 }, (_, i) => `word${letter(i % 26)}${letter(Math.floor(i / 26))}`);
      const titles = [words.join(' '), 'Other page'];
      await writeFile(join(dir, TYPEAHEAD_FILE), encodeTypeahead(buildTypeahead(titles.map((title) => ({ title })))));
      const gen = { dir, docs: { url: ['http://d/long', 'http://d/other'], title: titles } } as unknown as IndexGeneration;
      const lookup = loadPageTypeahead(gen);
      for (const n of [2, 255, 300]) expect(lookup(words.slice(0, n).join(' '), 5).map((p) => p.url)).toEqual(['http://d/long']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('offers every page a shared heading opens, once each, up to the limit, in document order', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    try {
      const docs = Array.from({ length: 6 }, (_, d) => ({ title: `Struct ${d}`, sections: [{ id: 'impl', heading: 'Trait Implementations', start: 0 }, { id: 'x', heading: 'Examples', start: 5 }] }));
      await writeFile(join(dir, TYPEAHEAD_FILE), encodeTypeahead(buildTypeahead(docs)));
      const url = docs.map((_, d) => `http://d/s${d}`);
      const gen = { dir, docs: { url, title: docs.map((d) => d.title) } } as unknown as IndexGeneration;
      const lookup = loadPageTypeahead(gen);
      expect(lookup('trait impl', 4).map((p) => p.url)).toEqual(url.slice(0, 4).map((u) => `${u}#impl`));
      expect(lookup('trait impl', 10).map((p) => p.url)).toEqual(url.map((u) => `${u}#impl`));
      expect(lookup('trait impl', 1)[0]).toEqual({ title: 'Struct 0', url: 'http://d/s0#impl', heading: 'Trait Implementations' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('loads a part at a time, pausing between parts, and offers what loading at once offers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gleaner-typeahead-'));
    try {
      const titles = Array.from({ length: 300 }, (_, i) => `Chapter ${i} on timeouts, retries and café ${i % 7 === 0 ? 'Straße' : 'road'}`);
      const file = buildTypeahead(titles.map((title) => ({ title })));
      const lines = encodeTypeahead(file);
      expect(lines.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
      const text = lines.join('');
      // The file is lines: the entries, then one per flexsearch part, each decoded back as it was.
      const { entries, parts } = decodeTypeahead(Buffer.from(text, 'utf8'));
      expect(entries).toEqual(file.entries);
      expect(Object.fromEntries(parts())).toEqual(file.index);
      await writeFile(join(dir, TYPEAHEAD_FILE), text);
      const gen = { dir, docs: { url: titles.map((_, i) => `http://d/${i}`), title: titles } } as unknown as IndexGeneration;
      let pauses = 0;
      const opened = await openPageTypeahead(gen, () => {
        pauses++;
        return Promise.resolve();
      });
      expect(pauses).toBe(Object.keys(file.index).length);
      const atOnce = loadPageTypeahead(gen);
      expect(opened('timeo', 5)).toHaveLength(5);
      expect(opened('straße chap', 5).length).toBeGreaterThan(0);
      for (const q of ['timeo', 'chapter 12', 'café', 'straße chap', 'retries road', 'nothing like it']) expect(opened(q, 5)).toEqual(atOnce(q, 5));
      // A generation of the earlier layout (one JSON document) is read as it was.
      await rm(join(dir, TYPEAHEAD_FILE));
      await writeFile(join(dir, LEGACY_TYPEAHEAD_FILE), JSON.stringify(file));
      expect((await openPageTypeahead(gen))('timeo', 5)).toEqual(atOnce('timeo', 5));
      expect(loadPageTypeahead(gen)('timeo', 5)).toEqual(atOnce('timeo', 5));
      // None at all: nothing offered, nothing thrown.
      await rm(join(dir, LEGACY_TYPEAHEAD_FILE));
      expect((await openPageTypeahead(gen))('timeo', 5)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('an engine answers from the typeahead it loaded without blocking', async () => {
    await engine().pagesReady();
    expect(engine().suggestPages('iter', 5).map((p) => p.url)).toEqual(['http://d/iter']);
  });
});
