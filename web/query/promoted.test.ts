import { describe, expect, it } from 'vitest';
import { WEB_DEFAULTS } from '../defaults.js';
import { parseQuery } from './parse.js';
import { parsePromoted, promotedUrls, PROMOTED_ENTRY_MAX_CHARS } from './promoted.js';

const S = 'http://intranet.example';
const FILE = `<?xml version="1.0" encoding="UTF-8"?>
<!-- comments are skipped -->
<elevate>
  <query text="Vacation policy">
    <doc id="${S}/hr/leave"/>
    <doc id="${S}/hr/forms"/>
  </query>
  <query text="expenses" match="subset">
    <doc id="${S}/finance/claims"/>
    <doc id="${S}/hr/forms"/>
  </query>
  <query text="café menu">
    <doc id="${S}/canteen"/>
  </query>
</elevate>`;

const urlsFor = (typed: string) => promotedUrls(parseQuery(typed), parsePromoted(FILE, 'test'));

describe("promoted pages from Solr's elevate.xml", () => {
  it('reads the entries in order, each URL once', () => {
    const rules = parsePromoted(FILE, 'test');
    expect(rules.entries.map((e) => [e.match, e.urls.length])).toEqual([
      ['exact', 2],
      ['subset', 2],
      ['exact', 1],
    ]);
    expect(rules.urls).toEqual([`${S}/hr/leave`, `${S}/hr/forms`, `${S}/finance/claims`, `${S}/canteen`]);
  });

  it('writes each URL as the crawler does, so it meets the index\'s', () => {
    const rules = parsePromoted('<elevate><query text="a"><doc id="HTTP://Intranet.Example:80/hr/leave#top"/><doc id="http://intranet.example/hr/leave"/></query></elevate>', 'test');
    expect(rules.urls).toEqual([`${S}/hr/leave`]);
  });

  it('meets a query of the same words in the same order (exact), case, plurals and accents as search has them', () => {
    expect(urlsFor('vacation policy')).toEqual([`${S}/hr/leave`, `${S}/hr/forms`]);
    expect(urlsFor('VACATION POLICIES')).toEqual([`${S}/hr/leave`, `${S}/hr/forms`]);
    expect(urlsFor('cafe menu')).toEqual([`${S}/canteen`]);
    expect(urlsFor('policy vacation')).toEqual([]);
    expect(urlsFor('vacation policy 2024')).toEqual([]);
    expect(urlsFor('vacation')).toEqual([]);
  });

  it('meets any query holding every word of a subset entry, in any order; URLs of several entries once each', () => {
    expect(urlsFor('expenses')).toEqual([`${S}/finance/claims`, `${S}/hr/forms`]);
    expect(urlsFor('travel expense claim')).toEqual([`${S}/finance/claims`, `${S}/hr/forms`]);
    const both = parsePromoted(`<elevate><query text="leave"><doc id="${S}/a"/><doc id="${S}/b"/></query><query text="leave" match="subset"><doc id="${S}/b"/><doc id="${S}/c"/></query></elevate>`, 'test');
    expect(promotedUrls(parseQuery('leave'), both)).toEqual([`${S}/a`, `${S}/b`, `${S}/c`]);
  });

  it('meets only plain words: quotes, -, OR, fields and filters say more than a list can', () => {
    for (const typed of ['"vacation policy"', 'vacation policy -draft', 'vacation OR policy', 'intitle:expenses', 'expenses site:intranet.example', 'expenses lang:en', 'expenses after:2024', '-expenses']) {
      expect(urlsFor(typed), typed).toEqual([]);
    }
  });

  it('stops at the first mistake with its line, in one message a site owner can act on', () => {
    const bad = (text: string) => () => parsePromoted(text, 'serve: --promoted x.xml');
    expect(bad('<elevate>\n<query text="a">\n<doc id="/relative"/>\n</query>\n</elevate>')).toThrow(/^serve: --promoted x\.xml line 3: a <doc> whose id is not a page's URL \(http:\/\/ or https:\/\/\): "\/relative"$/);
    expect(bad(`<elevate><query text="a"><doc id="${S}/x" exclude="true"/></query></elevate>`)).toThrow(/line 1: exclude="true" on .*: Gleaner promotes pages and hides none/);
    expect(bad(`<elevate>\n<query><doc id="${S}/x"/></query></elevate>`)).toThrow(/line 2: a <query> without text=/);
    expect(bad(`<elevate><query text="a" match="prefix"><doc id="${S}/x"/></query></elevate>`)).toThrow(/match="prefix": exact \(the default\) or subset/);
    expect(bad(`<elevate><query text="&quot;a b&quot;"><doc id="${S}/x"/></query></elevate>`)).toThrow(/is not plain words/);
    expect(bad('<elevate><query text="a"></query></elevate>')).toThrow(/promotes no page/);
    expect(bad(`<elevate><doc id="${S}/x"/></elevate>`)).toThrow(/<doc> inside <elevate>/);
    expect(bad(`<elevate><query text="a">words<doc id="${S}/x"/></query></elevate>`)).toThrow(/text "words" where only elements belong/);
    expect(bad('a, b\nc => d')).toThrow(/^serve: --promoted x\.xml line 1: text "a, b/);
    expect(bad('')).toThrow(/no <elevate> element/);
    expect(bad(`<elevate><query text="${'w'.repeat(PROMOTED_ENTRY_MAX_CHARS + 1)}"><doc id="${S}/x"/></query></elevate>`)).toThrow(/longer than a query may be/);
  });

  it('an entry may be as long as a query', () => {
    expect(PROMOTED_ENTRY_MAX_CHARS).toBe(WEB_DEFAULTS.maxQueryChars);
  });
});
