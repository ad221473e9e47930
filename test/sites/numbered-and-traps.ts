// A test site for issue 12 class 4 (a large numbered listing is not a trap) and class 7 (counters), on
// node:http at 127.0.0.1 port 0, recording every request:
// - a numbered listing: `/item/1.html` ... `/item/N.html` (2,000 by default), listed `perPage` to a page on
//   `/list/K.html`, every listing page linking every other (a pager) and its items; each item links the
//   previous and the next item, as galleries and document series do;
// - a real next-link trap: `/calendar/day/N` links `/calendar/day/N+1`, forever;
// - a real date calendar: `/events?month=YYYY-MM` links the next month, forever, from this month on;
// - a session-id trap: `/s/ID/index.html` links `/s/NEXT-ID/index.html` with a new 16-character id, forever
//   (`sessionId(n)`, n = 0, 1, ...), as a server that puts a fresh session in every link does;
// - a link to another host (out of scope) on the home page, every listing page and every item, so scope
//   counts can be compared across runs;
// - with `printPages`, a print link on every item to a page with the same text for every item (a login
//   wall: repeated content);
// - an ETag on every page, answered with 304 when it matches (for recrawls).
// The home page `/` links the first listing page, the calendar and the events. Answers 404 to the rest.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/** The n-th session id of the session trap: 16 characters, letters and digits mixed. */
export function sessionId(n: number): string {
  return `a1${createHash('sha1').update(String(n)).digest('hex').slice(0, 14)}`;
}

export interface NumberedSiteOptions {
  /** Items in the listing. */
  items: number;
  /** Items per listing page. */
  perPage: number;
  /** Each item also links `/print/N.html`, a page whose text is the same for every N (a login wall). */
  printPages: boolean;
}

export const DEFAULT_NUMBERED_SITE: NumberedSiteOptions = { items: 2_000, perPage: 50, printPages: false };

export interface NumberedSite {
  /** `http://127.0.0.1:PORT`, no trailing slash; the home page is `${origin}/`. */
  origin: string;
  /** Paths (with query) requested, in arrival order. */
  requests: string[];
  /** Responses sent, by status. */
  statuses: Map<number, number>;
  /** The month the events calendar starts at, `YYYY-MM` (the current one). */
  firstMonth: string;
  close(): Promise<void>;
}

export async function startNumberedSite(given: Partial<NumberedSiteOptions> = {}): Promise<NumberedSite> {
  const { items, perPage, printPages } = { ...DEFAULT_NUMBERED_SITE, ...given };
  const listPages = Math.ceil(items / perPage);
  const now = new Date();
  const firstMonth = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const requests: string[] = [];
  const statuses = new Map<number, number>();
  /** Session ids handed out so far, with their number. */
  const sessions = new Map<string, number>([[sessionId(0), 0]]);
  let port = 0;

  const link = (href: string, text: string) => `<a href="${href}">${text}</a>`;
  const html = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;

  const content = (path: string, query: URLSearchParams): string | undefined => {
    if (path === '/') {
      return html(
        'Numbered site',
        `<p>A catalogue with a calendar on port ${port}.</p>${link('/list/1.html', 'catalogue')} ${link('/calendar/day/1', 'calendar')} ${link(`/events?month=${firstMonth}`, 'events')} ${link(`/s/${sessionId(0)}/index.html`, 'members')} ${link('http://elsewhere.invalid/', 'a friend')}`,
      );
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/list\/(\d+)\.html$/.exec(path))) {
      const k = Number(m[1]);
      if (k < 1 || k > listPages) return undefined;
      const pager: string[] = [];
      for (let p = 1; p <= listPages; p++) if (p !== k) pager.push(link(`/list/${p}.html`, `page ${p}`));
      const list: string[] = [];
      for (let i = (k - 1) * perPage + 1; i <= Math.min(items, k * perPage); i++) list.push(`<li>${link(`/item/${i}.html`, `item ${i}`)}</li>`);
      return html(`Catalogue page ${k}`, `<p>Page ${k} of the catalogue.</p><ul>${list.join('')}</ul><nav>${pager.join(' ')}</nav>${link('http://elsewhere.invalid/', 'a friend')}`);
    }
    if ((m = /^\/item\/(\d+)\.html$/.exec(path))) {
      const i = Number(m[1]);
      if (i < 1 || i > items) return undefined;
      const prev = i > 1 ? link(`/item/${i - 1}.html`, 'previous') : '';
      const next = i < items ? link(`/item/${i + 1}.html`, 'next') : '';
      return html(`Item ${i}`, `<p>Item number ${i}, serial ${i * 7919} of the catalogue.</p>${prev} ${next} ${link(`/list/${Math.ceil(i / perPage)}.html`, 'back')} ${link('http://elsewhere.invalid/', 'a friend')}${printPages ? link(`/print/${i}.html`, 'print') : ''}`);
    }
    if ((m = /^\/print\/(\d+)\.html$/.exec(path)) && printPages) {
      return html('Print', '<p>Please sign in to print this page.</p>');
    }
    if ((m = /^\/calendar\/day\/(\d+)$/.exec(path))) {
      const n = Number(m[1]);
      return html(`Day ${n}`, `<p>Nothing is planned on day ${n}.</p>${link(`/calendar/day/${n + 1}`, 'next day')}`);
    }
    if ((m = /^\/s\/([a-z0-9]{16})\/index\.html$/.exec(path))) {
      const n = sessions.get(m[1]!);
      if (n === undefined) return undefined;
      const next = sessionId(n + 1);
      sessions.set(next, n + 1);
      return html('Members', `<p>Members area, visit ${n}.</p>${link(`/s/${next}/index.html`, 'continue')}`);
    }
    if (path === '/events') {
      const month = /^(\d{4})-(\d{2})$/.exec(query.get('month') ?? '');
      if (!month) return undefined;
      const y = Number(month[1]);
      const mo = Number(month[2]);
      const next = mo === 12 ? `${y + 1}-01` : `${y}-${String(mo + 1).padStart(2, '0')}`;
      return html(`Events ${y}-${month[2]}`, `<p>No events in ${y}-${month[2]}.</p>${link(`/events?month=${next}`, 'next month')}`);
    }
    return undefined;
  };

  const answer = (req: IncomingMessage, res: ServerResponse): number => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
      return 200;
    }
    const body = content(url.pathname, url.searchParams);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end(html('Not found', '<p>No such page.</p>'));
      return 404;
    }
    const etag = `"${Buffer.from(url.pathname + url.search).toString('base64url')}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return 304;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
    return 200;
  };

  const server = createServer((req, res) => {
    requests.push(req.url ?? '/');
    const status = answer(req, res);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    statuses,
    firstMonth,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
