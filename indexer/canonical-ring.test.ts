// rel=canonical names that go round (A names B, B names A): one page of the ring is kept, as a search
// engine picks one of conflicting canonicals, instead of every page pointing away and none indexed.

import { afterEach, describe, expect, it } from 'vitest';
import { readCurrentGeneration } from '../shared/index-format/index.js';
import { buildFixtureIndex, pageRecord, type FixtureDir, type PageSpec } from '../test/support/index-fixture.js';
import { canonicalElsewhere } from './read-store.js';

const S = 'http://site.test';
const pagesOf = (specs: PageSpec[]) => new Map(specs.map((s) => [s.url, pageRecord(s)]));

describe('canonicalElsewhere', () => {
  it('a page naming another indexable page points away; one naming itself, nothing or a missing page does not', () => {
    const pages = pagesOf([
      { url: `${S}/a`, canonical: `${S}/b` },
      { url: `${S}/b` },
      { url: `${S}/self`, canonical: `${S}/self` },
      { url: `${S}/gone`, canonical: `${S}/missing` },
    ]);
    expect([`${S}/a`, `${S}/b`, `${S}/self`, `${S}/gone`].map((u) => canonicalElsewhere(pages.get(u)!, pages))).toEqual([true, false, false, false]);
  });

  it('a ring keeps its shortest URL (then the first in order); a page leading into a ring points away', () => {
    const pages = pagesOf([
      { url: `${S}/loop-long`, canonical: `${S}/loop` },
      { url: `${S}/loop`, canonical: `${S}/loop-long` },
      { url: `${S}/r1`, canonical: `${S}/r2` },
      { url: `${S}/r2`, canonical: `${S}/r3` },
      { url: `${S}/r3`, canonical: `${S}/r1` },
      { url: `${S}/into`, canonical: `${S}/r2` },
    ]);
    const kept = [...pages.values()].filter((p) => !canonicalElsewhere(p, pages)).map((p) => p.url);
    expect(kept).toEqual([`${S}/loop`, `${S}/r1`]);
  });
});

describe('a canonical ring in a crawl', () => {
  let fixture: FixtureDir | undefined;
  afterEach(async () => {
    await fixture?.cleanup();
  });

  it('is indexed as one page, which links to either count for', async () => {
    fixture = await buildFixtureIndex([
      { url: `${S}/canon-a`, title: 'Ring page', text: 'the zebrafish ring', canonical: `${S}/canon-bb` },
      { url: `${S}/canon-bb`, title: 'Ring page', text: 'the zebrafish ring', canonical: `${S}/canon-a` },
      { url: `${S}/`, title: 'Home', text: 'home', links: [`${S}/canon-a`, `${S}/canon-bb`] },
    ]);
    const gen = await readCurrentGeneration(fixture.dataDir);
    gen.lists.close();
    const d = gen.docs.url.indexOf(`${S}/canon-a`);
    expect([...gen.docs.url].filter((u) => u.includes('canon'))).toEqual([`${S}/canon-a`]);
    expect(gen.docs.inbound[d]).toBe(1);
  });
});
