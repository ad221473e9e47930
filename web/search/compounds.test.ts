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
