// pageFromOutcome: the record a response becomes. Here, the language a page gets from its
// Content-Language header when its markup declares none (extract.ts primaryLanguage, one rule for both),
// and the status of a page whose answer failed after its headers.

import { describe, expect, it } from 'vitest';
import { pageFromOutcome, type PageContext } from './page.js';
import type { FetchOutcome } from './fetch.js';

const PAGE_URL = 'http://site.test/page.html';

const ctx: PageContext = {
  entry: { url: PAGE_URL, depth: 0, via: 'seed', id: '' },
  previous: undefined,
  agent: 'gleaner',
  stripParams: [],
  maxRedirects: 5,
  fetchedAt: new Date('2026-12-06T00:00:00Z'),
  firstCopyOf: () => undefined,
};

function pageWith(contentLanguage: string | undefined, html = '<!doctype html><title>A page</title><p>Some words of the page.</p>'): string {
  const outcome: FetchOutcome = {
    kind: 'body',
    status: 200,
    headers: contentLanguage === undefined ? {} : { 'content-language': contentLanguage },
    contentType: 'text/html',
    body: new TextEncoder().encode(html),
    truncated: false,
  };
  return pageFromOutcome(outcome, ctx).page.language;
}

describe('the language from the Content-Language header', () => {
  it('takes its first plain language subtag when the markup declares none', () => {
    expect(pageWith('de-AT, en')).toBe('de');
    expect(pageWith('FR')).toBe('fr');
    expect(pageWith(undefined)).toBe('');
  });
  it('takes no language from a value that is none (detected from the text at index time instead)', () => {
    for (const value of ['english', 'und', 'mul', 'zxx', '*', '']) expect(pageWith(value), value).toBe('');
  });
  it('gives way to the language the markup declares', () => {
    expect(pageWith('de', '<!doctype html><html lang="es"><title>Una página</title><p>Unas palabras.</p></html>')).toBe('es');
  });
});

describe('a request that failed', () => {
  it('after the answer\'s headers: an error page with that status and type, not "no response"', () => {
    const { page } = pageFromOutcome({ kind: 'network-error', error: 'the body is not the Content-Encoding it says (gzip: incorrect header check)', status: 200, contentType: 'text/html' }, ctx);
    expect(page).toMatchObject({ state: 'error', status: 200, contentType: 'text/html', error: 'the body is not the Content-Encoding it says (gzip: incorrect header check)' });
  });
  it('before any answer: an error page with status 0', () => {
    const { page } = pageFromOutcome({ kind: 'network-error', error: 'connection refused' }, ctx);
    expect(page).toMatchObject({ state: 'error', status: 0, contentType: '', error: 'connection refused' });
  });
});

describe('a redirect to the page itself', () => {
  it('is an error saying so (a Location differing by a fragment or a stripped parameter is the same URL), not a redirect to nowhere', () => {
    for (const location of ['/page.html#top', PAGE_URL, '/page.html?utm_source=x']) {
      const { page } = pageFromOutcome({ kind: 'redirect', status: 301, location, headers: { location } }, { ...ctx, stripParams: ['utm_source'] });
      expect(page, location).toMatchObject({ state: 'error', status: 301, error: `redirect to itself: ${location}` });
    }
  });
  it('keeps a good stored copy through a temporary one, as through any temporary redirect', () => {
    const previous = { ...pageFromOutcome({ kind: 'body', status: 200, headers: {}, contentType: 'text/html', body: new TextEncoder().encode('<title>Kept</title><p>words</p>'), truncated: false }, ctx).page };
    const out = pageFromOutcome({ kind: 'redirect', status: 302, location: '/page.html#x', headers: {} }, { ...ctx, previous });
    expect(out.page).toBe(previous);
  });
});
