// `gleaner search QUERY` through its run(argv) over a real index: what it prints, its JSON against the
// gateway's /api/search over HTTP, and its one-line errors.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchCommand } from './search.js';
import { buildFixtureIndex, tempDataDir, type FixtureDir, type PageSpec } from '../../test/support/index-fixture.js';
import { createApp, listen, openSearchEngine, parsePromoted, parseSynonyms, type RunningServer } from '../../web/index.js';
import { GleanerError } from '../../shared/errors.js';

const S = 'http://intranet.example';
const DATED: Record<number, string> = { 4: '2025-05-05T00:00:00.000Z', 9: '2024-01-01T12:00:00.000Z' };
const PAGES: PageSpec[] = [
  { url: `${S}/vacuum`, title: 'VACUUM', text: 'VACUUM reclaims storage occupied by dead tuples. Use VACUUM FREEZE to freeze old rows.', links: [`${S}/freeze`] },
  { url: `${S}/freeze`, title: 'Freezing rows', text: 'Freezing marks old rows so vacuum need not visit them again.', links: [[`${S}/vacuum`, 'vacuum']] },
  { url: `${S}/evil`, title: 'Evil \x1b]0;pwned\x07 title', text: 'A vacuum cleaner page whose title holds terminal escapes.' },
  { url: `${S}/cluster`, title: 'Running the\ncluster', text: 'Our Kubernetes cluster runs every service;\n\ndeploy with the pipeline.' },
  // Eleven more pages saying "storage", so a page of 10 has a next page.
  // Two of them dated, for --sort date.
  ...Array.from({ length: 11 }, (_, i) => ({ url: `${S}/storage-${i}`, title: `Storage note ${i}`, text: `Storage note number ${i} about disk storage.`, ...(DATED[i] !== undefined ? { date: DATED[i] } : {}) })),
];

let fixture: FixtureDir;

beforeAll(async () => {
  fixture = await buildFixtureIndex(PAGES);
});
afterAll(async () => {
  await fixture.cleanup();
});

async function run(argv: string[], tty = false, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await createSearchCommand({ out: { write: (s: string) => (out += s), isTTY: tty } }, env).run([...argv, '--data', fixture.dataDir]);
  return { code, out };
}

async function failure(argv: string[]): Promise<GleanerError> {
  const e = await run(argv).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(GleanerError);
  return e as GleanerError;
}

describe('gleaner search', () => {
  it('prints the count, then each result: rank, title, URL and snippet, plain when not on a terminal', async () => {
    const { code, out } = await run(['vacuum', 'freeze']);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^2 results \(\d+\.\d{3} seconds\)$/);
    // Two pages have both words; the third has one, and says which it lacks.
    expect(lines[1]).toBe('Few pages have every word of the query; pages with some of the words come after them.');
    expect(lines.slice(3, 6)).toEqual(['1. VACUUM', `   ${S}/vacuum`, '   VACUUM reclaims storage occupied by dead tuples. Use VACUUM FREEZE to freeze old rows.']);
    expect(out).toContain(`\n2. Freezing rows\n   ${S}/freeze\n`);
    expect(out).toMatch(/\n3\. Evil .*\n   http:\/\/intranet\.example\/evil\n   A vacuum cleaner page .*\n   Missing: freeze\n$/);
    expect(out).not.toContain('\x1b');
  });

  it('marks the query words in bold on a terminal, and not when NO_COLOR is set', async () => {
    const bold = (await run(['freeze'], true)).out;
    expect(bold).toContain('\x1b[1mFREEZE\x1b[22m');
    expect((await run(['freeze'], true, { NO_COLOR: '1' })).out).not.toContain('\x1b[1m');
  });

  it("shows a page's control characters as escapes, never as terminal commands", async () => {
    const { out } = await run(['cleaner'], true);
    expect(out).toContain('Evil \\x1b]0;pwned\\x07 title');
    // The only escapes left are its own bold marks.
    expect(out.replace(/\x1b\[(?:1|22)m/g, '')).not.toContain('\x1b');
  });

  it('pages: says how to ask for the next page, and --page asks for it', async () => {
    const first = await run(['storage']);
    expect(first.out).toMatch(/^12 results, page 1 of 2 /);
    expect(first.out).toContain("More: gleaner search 'storage' --page 2");
    const second = await run(['storage', '--page', '2']);
    expect(second.out).toMatch(/^12 results, page 2 of 2 /);
    expect(second.out).toMatch(/\n11\. /);
    expect(second.out).not.toContain('More:');
    expect((await run(['storage', '--size', '20'])).out).not.toContain('More:');
  });

  it('the next-page command keeps the flags this search was asked with: its data dir, page size, --literal', async () => {
    // It said only the query and --page: run as printed, it read ./data, or asked page 2 of pages of
    // 10 where the user read pages of 5, and skipped or repeated results.
    const { out } = await run(['storage', '--size', '5', '--literal']);
    expect(out).toMatch(/^12 results, page 1 of 3 /);
    expect(out).toContain(`More: gleaner search 'storage' --page 2 --size 5 --literal --data ${fixture.dataDir}\n`);
  });

  it('searches a sure correction at once and says so; --literal searches as typed', async () => {
    const fixed = await run(['vacuun']);
    expect(fixed.out.split('\n')[0]).toBe('Showing results for vacuum; search instead for vacuun: add --literal');
    expect(fixed.out).toContain(`1. VACUUM\n`);
    const literal = await run(['vacuun', '--literal']);
    expect(literal.out).toContain('Did you mean: vacuum');
    expect(literal.out).toContain('0 results');
  });

  it('--sort date: newest first, each result with its date, and the next page asked in the same order', async () => {
    const { out } = await run(['storage', '--sort', 'date']);
    expect(out).toContain(`\n 1. Storage note 4\n    ${S}/storage-4  2025-05-05\n`);
    expect(out).toContain(`\n 2. Storage note 9\n    ${S}/storage-9  2024-01-01\n`);
    expect(out).toContain("More: gleaner search 'storage' --sort date --page 2");
    // By relevance the dated pages have no lead, and still show their dates.
    expect((await run(['storage', '--size', '20'])).out).toContain(`${S}/storage-4  2025-05-05\n`);
    expect((await failure(['storage', '--sort', 'price'])).message).toBe('search: --sort must be relevance or date, not price');
  });

  it('--explain shows the score and the parts it is made of', async () => {
    const { out } = await run(['vacuum', '--explain']);
    expect(out).toMatch(/score [\d.]+ = text [\d.]+ × links [\d.]+ \(\d+ inbound\)/);
    expect(out).toMatch(/text: vacuum in title ×1 [\d.]+/);
  });

  it('--json is the answer /api/search gives for the same query', async () => {
    const engine = await openSearchEngine(fixture.dataDir);
    let server: RunningServer | undefined;
    try {
      server = await listen(createApp({ engine, log: () => {} }), '127.0.0.1', 0);
      for (const [q, extra] of [['vacuum freeze', ''], ['vacuun', ''], ['storage', '&page=2&explain=1']] as const) {
        const argv = [...q.split(' '), '--json', ...(extra.includes('page=2') ? ['--page', '2', '--explain'] : [])];
        const cli = JSON.parse((await run(argv)).out) as Record<string, unknown>;
        const api = (await (await fetch(`${server.url}api/search?q=${encodeURIComponent(q)}${extra}`)).json()) as Record<string, unknown>;
        expect({ ...cli, tookMs: 0 }).toEqual({ ...api, tookMs: 0 });
        expect((cli.results as unknown[]).length).toBeGreaterThan(0);
      }
    } finally {
      await server?.close();
      engine.close();
    }
  });

  it('--synonyms searches the site\'s synonyms as OR alternatives, as serve does, and says so', async () => {
    const file = join(fixture.dataDir, 'synonyms.txt');
    await writeFile(file, '# ours\nk8s, kubernetes\n');
    const plain = await run(['k8s', 'deploy']);
    expect(plain.out).toContain('0 results');
    const { out } = await run(['k8s', 'deploy', '--synonyms', file]);
    // No "did you mean" for k8s: its alternative is on the pages.
    expect(out.split('\n').slice(0, 3)).toEqual(['Showing results for k8s OR kubernetes deploy', expect.stringMatching(/^1 result \(/), '']);
    // Line breaks in the page's title and text are spaces: each result is its lines.
    expect(out).toContain(`1. Running the cluster\n   ${S}/cluster\n   Our Kubernetes cluster runs every service; deploy with the pipeline.\n`);
    // The gateway with the same rules answers the same.
    const engine = await openSearchEngine(fixture.dataDir);
    let server: RunningServer | undefined;
    try {
      server = await listen(createApp({ engine, log: () => {}, options: { synonyms: parseSynonyms('k8s, kubernetes', 'test') } }), '127.0.0.1', 0);
      const api = (await (await fetch(`${server.url}api/search?q=k8s+deploy`)).json()) as Record<string, unknown>;
      const cli = JSON.parse((await run(['k8s', 'deploy', '--synonyms', file, '--json'])).out) as Record<string, unknown>;
      expect({ ...cli, tookMs: 0 }).toEqual({ ...api, tookMs: 0 });
      expect(api.understood).toBe('k8s OR kubernetes deploy');
      const page = await (await fetch(`${server.url}search?q=k8s+deploy`)).text();
      expect(page).toContain('Showing results for <strong class="q"><bdi>k8s OR kubernetes deploy</bdi></strong>');
      // "Why this result" ranks the query as the results page searched it.
      const trace = await (await fetch(`${server.url}trace?url=${encodeURIComponent(`${S}/cluster`)}&q=k8s+deploy`)).text();
      expect(trace).toContain('ranked 1 of 1');
      expect(trace).toContain('k8s OR kubernetes deploy');
    } finally {
      await server?.close();
      engine.close();
    }
    await writeFile(file, 'k8s\n');
    expect((await failure(['k8s', '--synonyms', file])).message).toBe(`search: --synonyms ${file} line 1: one entry alone: list two or more, separated by commas, or write "words => other words"`);
    expect((await failure(['k8s', '--synonyms', join(fixture.dataDir, 'none.txt')])).message).toBe(`search: --synonyms ${join(fixture.dataDir, 'none.txt')}: cannot read it: no such file`);
  });

  it('--promoted lists the pages the site recommends for the query before the results, as serve shows them', async () => {
    const file = join(fixture.dataDir, 'elevate.xml');
    // The help desk says nothing of storage; a page not in the index is not shown.
    const xml = `<elevate><query text="disk storage" match="subset"><doc id="${S}/cluster"/><doc id="${S}/not-indexed"/><doc id="${S}/vacuum"/></query></elevate>`;
    await writeFile(file, xml);
    const { out } = await run(['storage', 'disk', '--promoted', file]);
    const lines = out.split('\n');
    expect(lines.slice(1, 8)).toEqual(['', 'Recommended:', expect.stringMatching(/^ +\* Running the cluster$/), `    ${S}/cluster`, expect.stringMatching(/^ {4}Our Kubernetes cluster/), expect.stringMatching(/^ +\* VACUUM$/), `    ${S}/vacuum`]);
    expect(out).toMatch(/\n 1\. Storage note/);
    // A typo searched as its correction meets the list by the correction.
    const typo = (await run(['disk', 'storrage', '--promoted', file])).out;
    expect(typo).toMatch(/^Showing results for disk storage; search instead for disk storrage/);
    expect(typo).toContain('Recommended:');
    // Not for a query without every listed word, nor on page 2.
    expect((await run(['storage', '--promoted', file])).out).not.toContain('Recommended:');
    expect((await run(['storage', 'disk', '--page', '2', '--promoted', file])).out).not.toContain('Recommended:');
    // The gateway with the same list answers the same, and shows them above the results, linked as listed.
    const engine = await openSearchEngine(fixture.dataDir);
    let server: RunningServer | undefined;
    try {
      server = await listen(createApp({ engine, log: () => {}, options: { promoted: parsePromoted(xml, 'test') } }), '127.0.0.1', 0);
      const api = (await (await fetch(`${server.url}api/search?q=disk+storage`)).json()) as { promoted?: { url: string; title: string }[] };
      const cli = JSON.parse((await run(['disk', 'storage', '--promoted', file, '--json'])).out) as Record<string, unknown>;
      expect({ ...cli, tookMs: 0 }).toEqual({ ...api, tookMs: 0 });
      expect(api.promoted?.map((p) => [p.url, p.title])).toEqual([
        [`${S}/cluster`, 'Running the\ncluster'],
        [`${S}/vacuum`, 'VACUUM'],
      ]);
      const page = await (await fetch(`${server.url}search?q=disk+storage`)).text();
      const box = /<section class="promoted"[^]*?<\/section>/.exec(page)?.[0] ?? '';
      expect(box).toContain('<h2 id="promoted-heading">Recommended</h2>');
      expect(box).toContain(`<a href="${S}/cluster" rel="noreferrer">`);
      expect(page.indexOf('class="promoted"')).toBeLessThan(page.indexOf('<ol class="results"'));
      expect(await (await fetch(`${server.url}search?q=disk+storage&page=2`)).text()).not.toContain('class="promoted"');
    } finally {
      await server?.close();
      engine.close();
    }
    await writeFile(file, '<elevate><query text="disk"><doc id="cluster"/></query></elevate>');
    expect((await failure(['disk', '--promoted', file])).message).toBe(`search: --promoted ${file} line 1: a <doc> whose id is not a page's URL (http:// or https://): "cluster"`);
    expect((await failure(['disk', '--promoted', join(fixture.dataDir, 'none.xml')])).message).toBe(`search: --promoted ${join(fixture.dataDir, 'none.xml')}: cannot read it: no such file`);
  });

  it('refuses bad input in one line: no query, bad numbers, a page past the last, no index', async () => {
    expect((await failure([])).message).toBe('search: give a query, e.g. gleaner search robots crawl-delay');
    expect((await failure(['storage', '--page', '0'])).message).toBe('search: --page must be a whole number from 1 to 100, not "0"');
    expect((await failure(['storage', '--size', '51'])).message).toBe('search: --size must be a whole number from 1 to 50, not "51"');
    expect((await failure(['storage', '--page', '5'])).message).toBe('search: this search has 2 pages of results, not 5');
    // The query language's -word, typed as an argument of its own, reads as an option: said so, with the cure.
    expect((await failure(['--page', '2', 'storage', '-cloud', 'disk'])).message).toBe(
      "search: -cloud reads as an option; to leave a word out, quote the query (gleaner search 'storage -cloud disk') or put -- before its words",
    );
    // A file, or the index folder of a data dir, named as the data dir: said as serve says it.
    const named = async (data: string): Promise<string> =>
      createSearchCommand({ out: { write: () => true } }, {})
        .run(['storage', '--data', data])
        .then(
          () => 'no error',
          (err: unknown) => (err as Error).message,
        );
    const file = join(fixture.dataDir, 'a-file.txt');
    await writeFile(file, 'not a data dir');
    expect(await named(file)).toBe(`${file} is a file, not a directory: give --data a directory`);
    expect(await named(join(fixture.dataDir, 'index'))).toMatch(/is the index folder of the data dir .*: use --data /);
    const empty = await tempDataDir();
    try {
      const e = await createSearchCommand({ out: { write: () => true } }, {})
        .run(['storage', '--data', empty.dir])
        .catch((err: unknown) => err);
      expect(e).toBeInstanceOf(GleanerError);
      expect((e as GleanerError).code).toBe('NOT_FOUND');
      expect((e as GleanerError).message).toBe(`no index in ${empty.dir}: run \`gleaner index --data ${empty.dir}\` first`);
      // The command to copy is one a shell reads back: a path with a space is quoted.
      const spaced = join(empty.dir, "my team's data");
      await mkdir(spaced);
      const q = await createSearchCommand({ out: { write: () => true } }, {})
        .run(['storage', '--data', spaced])
        .catch((err: unknown) => err);
      expect((q as GleanerError).message).toBe(`no index in ${spaced}: run \`gleaner index --data '${spaced.replace("'", "'\\''")}'\` first`);
    } finally {
      await empty.cleanup();
    }
  });
});
