// A small documentation site with a blog, for sections and hubs (issue 14 item 3): a chapter's
// table-of-contents page, an alphabetical index page, paginated news listings whose teasers repeat the
// posts' openings, and long reference pages split by headings with ids (on the heading, on a wrapping
// `<section>`, or as a named anchor), one section holding a list of settings (`<dt id>`). Every page carries the same navigation. Loopback only.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SectionedSite {
  url: string;
  close(): Promise<void>;
}

/** Filler sentences about other things, so the reference pages are long as real ones are. */
const FILLER = [
  'The server keeps its data files in the data directory chosen when the cluster was initialised.',
  'Each connection is served by its own backend process, started by the postmaster on demand.',
  'Statistics about tables are gathered by the analyze command and used by the planner to choose plans.',
  'Write-ahead logging ensures that committed transactions survive a crash of the operating system.',
  'Roles own database objects and hold privileges, and may be members of other roles.',
  'Tablespaces let administrators place the files of tables on other disks.',
];
const filler = (n: number, from = 0): string => Array.from({ length: n }, (_, i) => `<p>${FILLER[(from + i) % FILLER.length]}</p>`).join('\n');

const NAV = '<div class="nav"><a href="/">Home</a> <a href="/manual/">Manual</a> <a href="/manual/bookindex.html">Index</a> <a href="/news/">News</a></div>';
const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${NAV}\n${body}\n${NAV}</body></html>`;

/** The reference pages of the chapter: path, title, sections [id, heading, text]. */
const CHAPTER: [string, string, [string, string, string][]][] = [
  ['/manual/gin-intro.html', '5.1. Introduction', [
    ['GIN-INTRO', '5.1. Introduction', 'GIN stands for Generalized Inverted Index. GIN is designed for handling cases where the items to be indexed are composite values, and the queries to be handled by the index need to search for element values that appear within the composite items. A GIN index stores a set of (key, posting list) pairs, where a posting list is a set of row IDs in which the key occurs.'],
  ]],
  ['/manual/gin-builtin.html', '5.2. Built-in Operator Classes', [
    ['GIN-BUILTIN', '5.2. Built-in Operator Classes', 'The core distribution includes operator classes for arrays, jsonb and tsvector. Of the two operator classes for type jsonb, jsonb_ops is the default.'],
  ]],
  ['/manual/gin-implementation.html', '5.3. Implementation', [
    ['GIN-IMPL', '5.3. Implementation', 'Internally, the structure contains a B-tree index constructed over keys, where each key is an element of one or more indexed items.'],
    ['GIN-FAST-UPDATE', '5.3.1. Fast Update Technique', 'Updating an inverted structure tends to be slow: inserting one heap row can cause many inserts. The pending list collects new tuples until a vacuum or the size limit moves them into the main structure in bulk.'],
    ['GIN-PARTIAL-MATCH', '5.3.2. Partial Match Algorithm', 'Partial match finds keys that start with a prefix and combines their posting lists.'],
  ]],
];

/** A long configuration reference, sections marked three ways. */
const CONFIG = page(
  'Server Configuration',
  `<h1 id="config">Server Configuration</h1>
<p>This chapter describes the settings that control the behaviour of the server.</p>
${filler(8)}
<section id="config-memory"><h2>Resource Consumption</h2>
<p>shared_buffers sets the amount of memory the server uses for shared memory buffers.</p>
<div class="variablelist"><dl>
<dt id="guc-work-mem"><code>work_mem</code> (<code>integer</code>)</dt><dd><p>Sets the base maximum amount of memory to be used by a query operation, such as a sort or hash table, before writing to temporary disk files.</p></dd>
<dt id="guc-temp-buffers"><code>temp_buffers</code> (<code>integer</code>)</dt><dd><p>Sets the maximum amount of memory used for temporary buffers within each database session.</p></dd>
<dt id="guc-fsync"><code>fsync</code> (<code>boolean</code>)</dt><dd><p>If this parameter is on, the server makes sure that updates are physically written to disk.</p></dd>
</dl></div>
<p>Allocations the kernel's overcommit accounting refuses fail at once.</p>
${filler(10, 1)}
</section>
<section id="config-wal"><h2>Write Ahead Log</h2>
<p>wal_level determines how much information is written to the write-ahead log.</p>
${filler(10, 2)}
</section>
<a name="config-pending"></a><h2>Pending list limit</h2>
<p>gin_pending_list_limit sets the maximum size of the pending list used when fastupdate is enabled. When the list grows larger than this maximum size, it is cleaned up by moving its entries in bulk.</p>
${filler(10, 3)}
<h2 id="config-locale">Locale and Formatting</h2>
<p>lc_messages sets the language in which messages are displayed.</p>
${filler(10, 4)}
<h4 id="config-huge-pages">Huge pages</h4>
<p>huge_pages controls whether large pages are requested from the operating system.</p>
<h2 id="config-reload">Reloading the server configuration</h2>
<p>The server rereads its configuration on SIGHUP: a configuration file changed while the server runs takes effect, server configuration parameters marked restart excepted.</p>`,
);

const CHAPTER_TOC = page(
  'Chapter 5. GIN Indexes',
  `<h1 id="GIN">Chapter 5. GIN Indexes</h1><div class="toc"><p>Table of Contents</p><dl>${CHAPTER.flatMap(([path, , sections]) =>
    sections.map(([id, heading], i) => `<dt><a href="${path}${i === 0 ? '' : `#${id}`}">${heading.replace(/^(5\.\d+(\.\d+)?\. )/, '$1GIN Index ')}</a></dt>`),
  ).join('')}</dl></div>`,
);

const BOOK_INDEX = page(
  'Index',
  `<h1 id="index">Index</h1>
<h2 id="indexdiv-G">G</h2><dl>
<dt>GIN index, <a href="/manual/gin-intro.html">Introduction</a>, <a href="/manual/gin-implementation.html">Implementation</a></dt>
<dt>GIN index fast update, <a href="/manual/gin-implementation.html#GIN-FAST-UPDATE">Fast Update Technique</a></dt>
<dt>GIN index operator classes, <a href="/manual/gin-builtin.html">Built-in Operator Classes</a></dt>
<dt>gin_pending_list_limit configuration parameter, <a href="/manual/config.html#config-pending">Pending list limit</a></dt>
</dl>
<h2 id="indexdiv-W">W</h2><dl>
<dt>wal_level configuration parameter, <a href="/manual/config.html#config-wal">Write Ahead Log</a></dt>
</dl>`,
);

/** News posts: slug, title, text (its first sentence is what a listing's teaser repeats). */
const POSTS: [string, string, string][] = Array.from({ length: 12 }, (_, i) => {
  const topics = ['replication slots', 'parallel query', 'logical decoding', 'index deduplication', 'incremental sort', 'partition pruning'];
  const details = ['standby servers resume streaming', 'workers share one scan', 'plugins receive row changes', 'equal keys collapse together', 'presorted prefix columns are reused', 'planners skip unneeded partitions'];
  const topic = topics[i % topics.length]!;
  return [
    `post-${i + 1}`,
    `Release ${i + 1}: ${topic}`,
    `Release ${i + 1} reworks ${topic}: ${details[i % details.length]!}, so large installations spend less time waiting during busy hours. ` +
      FILLER.concat(FILLER).join(' '),
  ];
});
const PER_PAGE = 4;

function newsPage(n: number): string {
  const posts = POSTS.slice((n - 1) * PER_PAGE, n * PER_PAGE);
  const pages = Array.from({ length: Math.ceil(POSTS.length / PER_PAGE) }, (_, i) => `<a href="/news/page/${i + 1}/">${i + 1}</a>`).join(' ');
  return page(
    `News, page ${n}`,
    `<h1>News</h1>${posts.map(([slug, title, text]) => `<article><h2><a href="/news/${slug}.html">${title}</a></h2><p>${text.slice(0, 240)}…</p><a href="/news/${slug}.html">Read more</a></article>`).join('\n')}<p>${pages}</p>`,
  );
}

function route(path: string): string | undefined {
  if (path === '/') return page('Example Docs', `<h1>Example Docs</h1><p>Welcome.</p><a href="/manual/">Manual</a> <a href="/manual/config.html">Configuration</a> <a href="/manual/placeholder.html">Placeholder</a>`);
  // A page with nothing of its own: the navigation every page has, and a title.
  if (path === '/manual/placeholder.html') return page('Placeholder', '');
  if (path === '/manual/') return CHAPTER_TOC;
  if (path === '/manual/bookindex.html') return BOOK_INDEX;
  if (path === '/manual/config.html') return CONFIG;
  const chapterPage = CHAPTER.find(([p]) => p === path);
  if (chapterPage) {
    const [, title, sections] = chapterPage;
    return page(title, sections.map(([id, heading, text], i) => `<h${i === 0 ? 2 : 3} id="${id}">${heading}</h${i === 0 ? 2 : 3}><p>${text}</p>${filler(3, i)}`).join('\n'));
  }
  if (path === '/news/') return newsPage(1);
  const listing = /^\/news\/page\/(\d+)\/$/.exec(path);
  if (listing && Number(listing[1]) >= 1 && Number(listing[1]) <= POSTS.length / PER_PAGE) return newsPage(Number(listing[1]));
  const post = POSTS.find(([slug]) => path === `/news/${slug}.html`);
  if (post) return page(post[1], `<article><h1>${post[1]}</h1><p>${post[2]}</p></article>`);
  return undefined;
}

export async function startSectionedSite(): Promise<SectionedSite> {
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    const html = route(path);
    if (html === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
