// pageFromOutcome: the record a response becomes. Here, the language a page gets from its
// Content-Language header when its markup declares none (extract.ts primaryLanguage, one rule for both).

import { describe, expect, it } from 'vitest';
import { pageFromOutcome, type PageContext } from './page.js';
import type { FetchOutcome } from './fetch.js';

const PAGE_URL = 'http://site.test/page.html';

function pageWith(contentLanguage: string | undefined, html = '<!doctype html><title>A page</title><p>Some words of the page.</p>'): string {
  const outcome: FetchOutcome = {
    kind: 'body',
    status: 200,
    headers: contentLanguage === undefined ? {} : { 'content-language': contentLanguage },
    contentType: 'text/html',
    body: new TextEncoder().encode(html),
    truncated: false,
  };
  const ctx: PageContext = {
    entry: { url: PAGE_URL, depth: 0, via: 'seed', id: '' },
    previous: undefined,
    agent: 'gleaner',
    stripParams: [],
    maxRedirects: 5,
    fetchedAt: new Date('2026-12-06T00:00:00Z'),
    firstCopyOf: () => undefined,
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
