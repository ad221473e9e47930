// What the demo intranet (bin/demo/site) was written to contain, so tests assert against documented
// facts rather than magic strings. bin/demo/server.test.ts checks every fact against the files, so a
// page edited carelessly fails there first, not in the end-to-end test.
//
// Paths are URL paths on the demo server; a directory path ('/news/') is served from its index.html.
// Words are lower case. A `stem` is a prefix every inflected form of a word shares (the indexer may stem
// "стипендия" and "стипендии" to one token), so "only this page has the word" is checked on the stem.

export interface LanguageQuery {
  /** What a user types. */
  query: string;
  /** The only page containing it (or, for `stem`, any word starting with `stem`). */
  path: string;
  stem: string;
}

export interface DemoFacts {
  /** Where a crawl starts. */
  seedPath: string;
  /** robots.txt for `*` (and so for Gleaner, which has no group of its own) disallows this prefix... */
  disallowedPrefix: string;
  /** ...whose pages are linked from public pages and share this word, found on no public page. */
  disallowedWord: string;
  /** Disallowed pages that public pages link to: a crawler ignoring robots.txt would request them. */
  disallowedLinkedPaths: string[];
  /** ...except this page, allowed by a longer `Allow` rule: it must be crawled and found by its word. */
  allowedException: { path: string; word: string };
  /** URLs linked from public pages but blocked by wildcard rules (`/*?print=`, `/*.pdf$`). */
  wildcardBlockedUrls: string[];
  /** An agent with its own group and a Crawl-delay; Gleaner must not take that delay. */
  crawlDelayAgent: { agent: string; delaySeconds: number };
  /** Has `<meta name="robots" content="noindex">`; its word appears on no other page. */
  noindexPath: string;
  noindexWord: string;
  /** Byte-identical pages under two URLs, both linked. */
  duplicatePaths: [string, string];
  /** Linked from every page's navigation... */
  mostLinkedPath: string;
  /** ...and linked from one page only. Both contain `sharedTerm` the same number of times (in no title),
   * and the less linked page is the shorter one, so text relevance alone would not put the most linked
   * page first: link weighting must. No other page contains the term. */
  lessLinkedPath: string;
  sharedTerm: string;
  /** A page only reachable through a rel=nofollow link; a crawler that follows nofollow finds it. */
  nofollowOnly: { path: string; word: string };
  /** A page only reachable through an image-map `area` link. */
  areaOnlyPath: string;
  /** A page with `<base href>` whose relative links resolve against the base, not the page's folder... */
  baseHrefPage: string;
  /** ...and a page only reachable through one of those links. */
  baseHrefOnlyPath: string;
  /** A `<meta http-equiv="refresh">` stub and where it points. */
  refreshStub: { path: string; target: string };
  /** A link carrying `?utm_source=newsletter`, which canonicalizes to the bare page. */
  trackingLink: { href: string; canonicalPath: string };
  /** Links to files that do not exist on purpose: the server answers 404. */
  deliberateBrokenLinks: string[];
  /** Public pages written in each language, with a query only one page answers. */
  languageQueries: Record<'en' | 'es' | 'zh' | 'ru', LanguageQuery>;
}

export const DEMO_FACTS: DemoFacts = {
  seedPath: '/',
  disallowedPrefix: '/internal/',
  disallowedWord: 'kestrel',
  disallowedLinkedPaths: ['/internal/salaries.html', '/internal/restructuring.html'],
  allowedException: { path: '/internal/handbook.html', word: 'lanyard' },
  wildcardBlockedUrls: ['/policies/travel.html?print=1', '/policies/expense-rates-2026.pdf'],
  crawlDelayAgent: { agent: 'SlowBot', delaySeconds: 30 },
  noindexPath: '/news/budget-draft.html',
  noindexWord: 'marigold',
  duplicatePaths: ['/policies/code-of-conduct.html', '/students/code-of-conduct.html'],
  mostLinkedPath: '/services/help-desk.html',
  lessLinkedPath: '/news/new-starters.html',
  sharedTerm: 'onboarding',
  nofollowOnly: { path: '/feedback.html', word: 'questionnaire' },
  areaOnlyPath: '/campus/sports-centre.html',
  baseHrefPage: '/howto/network/wifi.html',
  baseHrefOnlyPath: '/howto/eduroam-abroad.html',
  refreshStub: { path: '/old-home.html', target: '/' },
  trackingLink: { href: '/news/open-day.html?utm_source=newsletter', canonicalPath: '/news/open-day.html' },
  // The PDF is also blocked by robots.txt; the archive is an ordinary dead link (a `gone` page).
  deliberateBrokenLinks: ['/policies/expense-rates-2026.pdf', '/news/2019-archive.html'],
  languageQueries: {
    en: { query: 'sabbatical', path: '/policies/leave.html', stem: 'sabbatic' },
    es: { query: 'convocatoria', path: '/es/becas.html', stem: 'convocat' },
    zh: { query: '宿舍', path: '/zh/sushe.html', stem: '宿' }, // a tokenizer may split it into characters
    ru: { query: 'стипендия', path: '/ru/stipendiya.html', stem: 'стипенд' },
  },
};
