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
    ]);
    engine = await openSearchEngine(fixture.dataDir);
  });
  afterAll(async () => {
    engine.close();
    await fixture.cleanup();
  });

  it('finds the page that writes "e-mail" for the word "email", and only it', () => {
    expect(engine.search(query('email'), { offset: 0, limit: 10 }).hits.map((h) => h.url)).toEqual([`${S}/git-am`]);
    // Every word on git-am; git-apply follows as a partial match, lacking "email".
    const hits = engine.search(query('apply patch email'), { offset: 0, limit: 10 }).hits;
    expect(hits.map((h) => [h.url, h.missing ?? []])).toEqual([
      [`${S}/git-am`, []],
      [`${S}/git-apply`, ['email']],
    ]);
  });
  it('still finds it written with the hyphen, and finds no compound the pages do not write', () => {
    expect(engine.search(query('e-mail'), { offset: 0, limit: 10 }).hits.map((h) => h.url)).toEqual([`${S}/git-am`]);
    expect(engine.search(query('gitapply'), { offset: 0, limit: 10 }).hits.map((h) => h.url)).toEqual([`${S}/git-apply`]);
    expect(engine.search(query('mailsubject'), { offset: 0, limit: 10 }).hits).toEqual([]);
  });
});
