import { describe, expect, it } from 'vitest';
import { analyzeBody } from './analyze.js';
import { bodyInput } from './page.js';

const analyze = (html: string, refresh?: string) =>
  analyzeBody({
    body: new TextEncoder().encode(html),
    contentType: 'text/html',
    contentTypeHeader: 'text/html; charset=utf-8',
    url: 'http://a.test/docs/old.html',
    agent: 'gleaner',
    stripParams: [],
    xRobotsTag: [],
    ...(refresh === undefined ? {} : { refresh }),
  });

describe('the Refresh response header', () => {
  it('is followed as a meta refresh is, resolved against the page URL (not <base>)', () => {
    const a = analyze('<base href="http://b.test/"><title>Moved</title><a href="x">x</a>', '0; url=new.html');
    expect(a.links.filter((l) => l.kind === 'refresh')).toEqual([{ url: 'http://a.test/docs/new.html', text: '', rel: [], kind: 'refresh' }]);
    expect(a.links.map((l) => l.url)).toContain('http://b.test/x');
  });
  it('reaches the analysis from the response headers', () => {
    const body = new TextEncoder().encode('<title>Moved</title>');
    const outcome = { kind: 'body' as const, status: 200, headers: { 'content-type': 'text/html', refresh: '0; url=/next' }, contentType: 'text/html', body, truncated: false };
    const input = bodyInput(outcome, 'http://a.test/p', { agent: 'gleaner', stripParams: [] });
    expect(analyzeBody(input).links.map((l) => l.url)).toEqual(['http://a.test/next']);
  });
  it('names nothing when it is a bare delay, the page itself, or not http(s)', () => {
    for (const refresh of ['5', '0; url=old.html', "0; url='javascript:alert(1)'", '0; url=']) {
      expect(analyze('<title>Stays</title>', refresh).links, refresh).toEqual([]);
    }
  });
  it('adds nothing the META tag already names', () => {
    const a = analyze('<meta http-equiv="refresh" content="0; url=/docs/new.html"><title>Moved</title>', '0; url=/docs/new.html');
    expect(a.links).toHaveLength(1);
  });
  it('obeys the page\u2019s nofollow like any link', () => {
    const a = analyze('<meta name="robots" content="nofollow"><title>Moved</title>', '0; url=/next');
    expect(a.links).toEqual([{ url: 'http://a.test/next', text: '', rel: ['nofollow'], kind: 'refresh' }]);
  });
});
