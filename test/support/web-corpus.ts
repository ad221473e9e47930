// A small intranet for the gateway's tests: enough pages on one word to need three result pages, a hub
// every guide links to, pages in four languages, a noindex page, a second host for site:, and a page
// whose title and text are hostile HTML (a crawled page is untrusted input).

import type { PageSpec } from './index-fixture.js';

export const HOST = 'http://intranet.test';
export const HUB_URL = `${HOST}/handbook`;
export const GUIDE_COUNT = 24;
/** A word only the hostile page has. */
export const HOSTILE_WORD = 'quokkapayload';
export const HOSTILE_URL = `${HOST}/hostile?a=1&b=2`;
/** Payloads that would set window.__xss if any of them ran. */
export const HOSTILE_TITLE = `<script>window.__xss = 'title'</script> ${HOSTILE_WORD} <img src=x onerror="window.__xss='img'">`;
export const HOSTILE_TEXT = `Before ${HOSTILE_WORD} <script>window.__xss = 'text'</script> and <img src=x onerror="window.__xss='onerror'"> after, with "quotes" & ampersands.`;

const topics = ['politeness', 'frontier', 'canonicalization', 'sitemaps', 'duplicates', 'traps', 'charset', 'redirects'];

export function gatewayPages(): PageSpec[] {
  const guides: PageSpec[] = Array.from({ length: GUIDE_COUNT }, (_, i) => ({
    url: `${HOST}/guide/${i + 1}`,
    title: `Crawler guide part ${i + 1}: ${topics[i % topics.length]}`,
    headings: [`Part ${i + 1}`],
    text: `This part of the crawler guide explains ${topics[i % topics.length]} for a web crawler. A crawler visits pages breadth-first. Chapter ${i + 1} of the handbook.`,
    links: [HUB_URL],
  }));
  return [
    ...guides,
    {
      url: HUB_URL,
      title: 'Northwind handbook',
      text: 'The handbook of the Northwind intranet: crawler guides, robots.txt rules, the library and the canteen.',
      links: guides.map((g) => g.url),
    },
    {
      url: `${HOST}/robots-explained`,
      title: 'robots.txt explained',
      text: 'A robots.txt file has groups; each Disallow rule and Allow rule applies to the agents named. The crawl delay slows a polite robot.',
    },
    { url: HOSTILE_URL, title: HOSTILE_TITLE, text: HOSTILE_TEXT },
    { url: `${HOST}/es/biblioteca`, title: 'La biblioteca', text: 'La biblioteca abre a las ocho. Los estudiantes pueden reservar salas de estudio.', language: 'es' },
    { url: `${HOST}/zh/library`, title: '图书馆', text: '图书馆早上八点开门。学生可以预订自习室。网络爬虫会抓取网页。', language: 'zh' },
    { url: `${HOST}/ru/library`, title: 'Библиотека', text: 'Библиотека открывается в восемь часов. Поисковый робот обходит страницы.', language: 'ru' },
    // Declares no language and has too little text to tell one: lang: cannot know it.
    { url: `${HOST}/figures`, title: 'Q3', text: '2026: 17 417 / 3 912', language: '' },
    { url: `${HOST}/secret`, title: 'Salaries', text: 'The zanzibarsecret salary table is not for search engines.', index: false },
    { url: 'http://docs.test/crawler-api', title: 'Crawler API reference', text: 'The crawler API of the docs site: start, stop and inspect a crawler.', links: [HUB_URL] },
  ];
}
