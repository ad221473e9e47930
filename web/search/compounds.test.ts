import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSearchEngine, type GleanerSearchEngine } from './index.js';
import { buildFixtureIndex, query, type FixtureDir } from '../../test/support/index-fixture.js';

// git-am's manual says "e-mail" ten times; the query typed is "email" (shared/analysis compounds.ts).
const S = 'https://docs.example';

describe('a hyphenated compound in search', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  beforeAll(async () => {
    fixture = await buildFixtureIndex([
      { url: `${S}/git-am`, title: 'git-am - Apply a series of patches from a mailbox', text: 'Splits mail messages in a mailbox into commit log messages. Each e-mail is one patch; the e-mail subject is the commit title.' },
      { url: `${S}/git-apply`, title: 'git-apply - Apply a patch to files', text: 'Reads the supplied diff output and applies it to files. A patch sent by mail must be saved first.' },
      { url: `${S}/git-format-patch`, title: 'git-format-patch - Prepare patches for submission', text: 'Prepares each commit with its patch in one email message, ready to send.' },
    ]);
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });

  it('finds the page that writes "e-mail" for the word "email", beside the one that writes "email"', () => {
    expect(engine.search(query('email'), { offset: 0, limit: 10 }).hits.map((h) => h.url).sort()).toEqual([`${S}/git-am`, `${S}/git-format-patch`]);
    // Every word on git-am; git-apply follows as a partial match, lacking "email".
    const hits = engine.search(query('apply patch email'), { offset: 0, limit: 10 }).hits;
    expect(hits.map((h) => [h.url, h.missing ?? []])).toEqual([
      [`${S}/git-am`, []],
      [`${S}/git-apply`, ['email']],
      [`${S}/git-format-patch`, ['apply']],
    ]);
  });
  it('finds both spellings for the word typed with the hyphen, the page that writes it so first', () => {
    const hits = engine.search(query('e-mail'), { offset: 0, limit: 10 }).hits;
    expect(hits.map((h) => h.url)).toEqual([`${S}/git-am`, `${S}/git-format-patch`]);
    // The joined word is what the second page matched by, and what its snippet shows.
    const { snippet, highlights } = hits[1]!;
    expect(highlights.map(([from, to]) => snippet.slice(from, to))).toEqual(['email']);
    // git-apply says "mail" but neither "email" nor "e-mail": a partial match, after the others.
    expect(engine.search(query('e-mail patch'), { offset: 0, limit: 10 }).hits.map((h) => [h.url, h.missing ?? []])).toEqual([
      [`${S}/git-am`, []],
      [`${S}/git-format-patch`, []],
      [`${S}/git-apply`, ['e-mail']],
    ]);
  });
  it('finds no compound the pages do not write', () => {
    expect(engine.search(query('gitapply'), { offset: 0, limit: 10 }).hits.map((h) => h.url)).toEqual([`${S}/git-apply`]);
    expect(engine.search(query('mailsubject'), { offset: 0, limit: 10 }).hits).toEqual([]);
  });
});

// HAProxy's configuration manual defines `hard-stop-after`; its management guide says "the hard stop is
// simple" and "stop" fifty times, and ranked first while the typed name was read as loose words.
describe('words joined by hyphens in search', () => {
  let fixture: FixtureDir;
  let engine: GleanerSearchEngine;
  beforeAll(async () => {
    fixture = await buildFixtureIndex([
      { url: `${S}/configuration`, title: 'Configuration Manual', text: 'Process management. hard-stop-after <time> defines the maximum time allowed to perform a clean soft-stop. See also grace.' },
      { url: `${S}/management`, title: 'Management Guide: stopping HAProxy', text: 'There are two ways to stop: a hard stop and a graceful stop. The hard stop is simple: after the signal the process stops. Stop, stop, stop after a hard stop.' },
      { url: `${S}/x-forwarded`, title: 'Headers', text: 'The x-forwarded-for header names the client. A header is forwarded for each request.' },
    ]);
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });

  it('asks them in a row, stopwords included, as Xapian and web engines read a hyphenated name', () => {
    expect(engine.search(query('hard-stop-after'), { offset: 0, limit: 10 }).hits.map((h) => h.url)).toEqual([`${S}/configuration`]);
    expect(engine.search(query('x-forwarded-for header'), { offset: 0, limit: 10 }).hits.map((h) => h.url)).toEqual([`${S}/x-forwarded`]);
    // The same words typed apart are loose words, on both pages.
    expect(engine.search(query('hard stop after'), { offset: 0, limit: 10 }).hits.map((h) => h.url).sort()).toEqual([`${S}/configuration`, `${S}/management`]);
  });

  it('ranks them as words, and a page having them only apart is no match for them, as for a quoted phrase', () => {
    const hits = engine.search(query('hard-stop-after grace'), { offset: 0, limit: 10 }).hits;
    expect(hits.map((h) => [h.url, h.missing ?? []])).toEqual([[`${S}/configuration`, []]]);
    // No page has both: the one with the name in a row follows as a partial match lacking "signal"; the
    // guide, which has the words apart and "signal", is not offered as lacking nothing.
    const apart = engine.search(query('hard-stop-after signal'), { offset: 0, limit: 10 }).hits;
    expect(apart.map((h) => [h.url, h.missing ?? []])).toEqual([[`${S}/configuration`, ['signal']]]);
  });
});
