import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING_OPTIONS, listingShare, readsAsProse } from './listing.js';

const page = (text: string, codeShare?: number) => ({ text, ...(codeShare !== undefined ? { codeShare } : {}) });

describe('listingShare', () => {
  it('is the content share inside <pre> of a page with next to no prose', () => {
    // 2,000 characters: 1,900 of code, 100 of breadcrumbs.
    expect(listingShare(page('x'.repeat(2000), 0.95), undefined)).toBeCloseTo(0.95, 6);
  });
  it('measures against the content text: the theme around a listing is template, not prose', () => {
    // 2,000 characters of text, 1,500 of them code; the content without its template is 1,600.
    expect(listingShare(page('x'.repeat(2000), 0.75), 'y'.repeat(1600))).toBeCloseTo(1500 / 1600, 6);
  });
  it('is 0 for a page with prose of its own however long its code (an article before a long sample output)', () => {
    const prose = DEFAULT_LISTING_OPTIONS.minProseChars;
    const text = 'x'.repeat(100_000);
    expect(listingShare(page(text, (text.length - prose) / text.length), undefined)).toBe(0);
    expect(listingShare(page(text, (text.length - prose + 1) / text.length), undefined)).toBeGreaterThan(0.99);
  });
  it('is 0 when the crawl did not measure it, and for an empty page', () => {
    expect(listingShare(page('x'.repeat(500)), undefined)).toBe(0);
    expect(listingShare(page('', 1), undefined)).toBe(0);
  });
  it('never passes 1, whatever the template took', () => {
    expect(listingShare(page('x'.repeat(1000), 1), 'y'.repeat(400))).toBe(1);
  });
  it('is 0 for a manual page set in one <pre>: sentences in a fixed font are prose, not code', () => {
    // Postfix's postmap.1.html, as man2html writes every manual page of the site: one <pre>.
    const man =
      'POSTMAP(1) POSTMAP(1) NAME postmap - Postfix lookup table management SYNOPSIS postmap [-bfFhimnNoprsuUvw] ' +
      '[-c config_dir] [-d key] [-q key] [file_type:]file_name ... DESCRIPTION The postmap(1) command creates or ' +
      'queries one or more Postfix lookup tables, or updates an existing one. If the result files do not exist they ' +
      'will be created with the same group and other read permissions as their source file. While the table update ' +
      'is in progress, signal delivery is postponed, and an exclusive, advisory, lock is placed on the entire table, ' +
      'in order to avoid surprises in spectator processes. INPUT FILE FORMAT The format of a lookup table input file ' +
      'is as follows: A table entry has the form key whitespace value. Empty lines and whitespace-only lines are ' +
      'ignored, as are lines whose first non-whitespace character is a `#\'. A logical line starts with non-whitespace ' +
      'text. A line that starts with whitespace continues a logical line. ';
    const text = man.repeat(3);
    expect(readsAsProse(text)).toBe(true);
    expect(listingShare(page(text, 0.97), undefined)).toBe(0);
  });
  it('still counts source code as a listing, docstrings and comments included', () => {
    // Django's _modules/django/contrib/sessions/middleware.html, the listing with the fewest symbols.
    const code =
      'Source code for django.contrib.sessions.middleware import time from importlib import import_module from ' +
      'django.conf import settings from django.contrib.sessions.backends.base import UpdateError from ' +
      'django.contrib.sessions.exceptions import SessionInterrupted from django.utils.cache import patch_vary_headers ' +
      'from django.utils.deprecation import MiddlewareMixin from django.utils.http import http_date class ' +
      'SessionMiddleware(MiddlewareMixin): def __init__(self, get_response): super().__init__(get_response) engine = ' +
      'import_module(settings.SESSION_ENGINE) self.SessionStore = engine.SessionStore def process_request(self, ' +
      'request): session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME) request.session = ' +
      'self.SessionStore(session_key) def process_response(self, request, response): """ If request.session was ' +
      'modified, or if the configuration is to save the session every time, save the changes and set a session ' +
      'cookie or delete the session cookie if the session has been emptied. """ try: accessed = ' +
      'request.session.accessed modified = request.session.modified empty = request.session.is_empty() except ' +
      'AttributeError: return response ';
    const text = code.repeat(3);
    expect(readsAsProse(text)).toBe(false);
    expect(listingShare(page(text, 0.95), undefined)).toBeCloseTo(0.95, 6);
  });
});
