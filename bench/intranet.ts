// A held-out intranet for relevance (issue 14, "Measure"): four hosts on loopback ports, each with one
// heavy template (header, navigation, sidebars and footer repeated on every page), hub and listing pages
// (chapter tables of contents, an A-Z index, a paginated news archive whose teasers repeat the posts),
// long sectioned pages with `id`s on their headings, a legacy host whose bytes are really windows-1252
// (declared by the HTTP header and a meta tag), and dated news posts. The text is real documentation from
// Debian packages no other bench uses: sqlite3-doc, bash-doc, libpam-doc and man pages rendered as text.
// The generator is deterministic (same files every run, nothing from the clock), so judged queries
// (bench/intranet-queries.tsv) stay valid.
//
//   apt-get install -y sqlite3-doc bash-doc libpam-doc
//   npx tsc -p tsconfig.json
//   node dist/bench/intranet.js generate [--out /tmp/intranet-site]   the files, one folder per port
//   node dist/bench/intranet.js serve [--out ...]                      serve them until killed
//   node dist/bench/intranet.js run [--out ...] [--data /tmp/intranet-data] [site-relevance flags]
//       generate, serve, crawl all hosts over HTTP with bin/gleaner, index, then bench/site-relevance.js
//       (Gleaner and Xapian Omega on the same generated files, in the same run), then stop serving.
//
// Judged paths are written `PORT/path` and the bench's site is `http://127.0.0.1:`, so site-relevance's
// URL-to-file mapping (site + path, docroot + path) works unchanged over several hosts.
// PDFs: issue 15 adds document crawling; a host's `documents` hook below is where they will be written.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { dirname, join, normalize } from 'node:path';
import iconv from 'iconv-lite';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const BASE_PORT = 8091;
const SQLITE_DOCS = '/usr/share/doc/sqlite3';
const BASH_REF = '/usr/share/doc/bash/bashref.html';
const PAM_DOCS = '/usr/share/doc/libpam-doc/html';
const MAN_PAGES = ['curl', 'find', 'grep', 'ip', 'journalctl', 'passwd', 'sed', 'ssh', 'systemctl', 'tar', 'useradd'];
const NEWS_POSTS = 40;
const NEWS_PER_PAGE = 6;

interface Section {
  heading: string;
  level: number;
  paragraphs: string[];
}
interface Page {
  path: string;
  title: string;
  /** Text before the first section. */
  lead: string[];
  sections: Section[];
  /** A dated post: shown under the title. */
  date?: string;
}
interface Host {
  port: number;
  name: string;
  charset: 'utf-8' | 'windows-1252';
  pages: Page[];
  /** Listing pages written as raw body HTML (hubs, TOCs, indexes, archives). */
  hubs: { path: string; title: string; body: string }[];
  /** Issue 15 (documents): PDFs this host links to, written beside the pages. None yet. */
  documents: { path: string; bytes: Buffer }[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', rsquo: '’', lsquo: '‘', ldquo: '“', rdquo: '”', mdash: '—', ndash: '–', hellip: '…', eacute: 'é' };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (m, e: string) => {
    if (e.startsWith('#x') || e.startsWith('#X')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

function plain(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Paragraphs of an HTML fragment: split at block ends, tags dropped. */
function paragraphs(html: string): string[] {
  return html
    .split(/<\/?(?:p|li|dd|dt|pre|div|tr|table|br|ol|ul|dl|blockquote)\b[^>]*>/i)
    .map(plain)
    .filter((p) => p.length > 1);
}

/** A documentation page as sections at its h1-h4 headings. */
function sectionsOf(html: string, minLevel = 1): { title: string; lead: string[]; sections: Section[] } {
  const title = plain(/<title>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '');
  const body = (/<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html).replace(/<(script|style)[\s\S]*?<\/\1>/gi, '');
  const re = /<h([1-4])\b[^>]*>([\s\S]*?)<\/h\1>/gi;
  const sections: Section[] = [];
  let lead: string[] = [];
  let last = 0;
  let current: Section | undefined;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const text = paragraphs(body.slice(last, m.index));
    if (current) current.paragraphs.push(...text);
    else lead = text;
    const level = Number(m[1]);
    const heading = plain(m[2]!);
    last = re.lastIndex;
    if (level < minLevel || heading === '') {
      current = undefined;
      continue;
    }
    current = { heading, level, paragraphs: [] };
    sections.push(current);
  }
  const rest = paragraphs(body.slice(last));
  if (current) current.paragraphs.push(...rest);
  return { title, lead, sections: sections.filter((s) => s.paragraphs.length > 0) };
}

function slug(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60) || 'section';
}

// --- the four hosts -------------------------------------------------------------------------------

const SQLITE_PAGES = [
  'autoinc', 'backup', 'cli', 'datatype3', 'foreignkeys', 'fts5', 'gencol', 'inmemorydb', 'isolation', 'json1',
  'lang_aggfunc', 'lang_altertable', 'lang_analyze', 'lang_attach', 'lang_corefunc', 'lang_createindex',
  'lang_createtable', 'lang_createtrigger', 'lang_createview', 'lang_datefunc', 'lang_delete', 'lang_explain',
  'lang_expr', 'lang_insert', 'lang_mathfunc', 'lang_returning', 'lang_savepoint', 'lang_select',
  'lang_transaction', 'lang_update', 'lang_upsert', 'lang_vacuum', 'lang_with', 'limits', 'lockingv3',
  'partialindex', 'pragma', 'queryplanner', 'rtree', 'stricttables', 'wal', 'withoutrowid',
];

function dataWiki(port: number): Host {
  const pages: Page[] = SQLITE_PAGES.map((name) => {
    const s = sectionsOf(readFileSync(join(SQLITE_DOCS, `${name}.html`), 'latin1'), 2);
    return { path: `/sql/${name.replace(/_/g, '-')}/`, title: s.title, lead: s.lead, sections: s.sections };
  });
  const language = pages.filter((p) => p.path.startsWith('/sql/lang-'));
  const features = pages.filter((p) => !p.path.startsWith('/sql/lang-'));
  return {
    port,
    name: 'Data Platform Wiki',
    charset: 'utf-8',
    pages,
    hubs: [
      { path: '/', title: 'Data Platform Wiki', body: `<p>Welcome to the data platform team's wiki: the SQL dialect our embedded databases speak and the engine features we rely on.</p>${tocList([{ title: 'SQL language reference', path: '/chapters/language/' }, { title: 'Engine features', path: '/chapters/features/' }, { title: 'A-Z index', path: '/a-z/' }])}` },
      { path: '/chapters/language/', title: 'Chapter: SQL language reference', body: chapterToc(language) },
      { path: '/chapters/features/', title: 'Chapter: Engine features', body: chapterToc(features) },
      { path: '/a-z/', title: 'A-Z index', body: azIndex(pages) },
    ],
    documents: [],
  };
}

function shellHandbook(port: number): Host {
  const html = readFileSync(BASH_REF, 'utf8');
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  const chapters = body.split(/(?=<h2 class="(?:chapter|appendix)")/).slice(1);
  const pages: Page[] = chapters.map((chunk) => {
    const s = sectionsOf(`<body>${chunk}</body>`, 2);
    const top = s.sections[0]!;
    const title = top.heading.replace(/^[A-Z0-9]+\s+/, '');
    return { path: `/handbook/${slug(title)}/`, title, lead: top.paragraphs, sections: s.sections.slice(1) };
  });
  return {
    port,
    name: 'Shell Handbook',
    charset: 'utf-8',
    pages,
    hubs: [
      { path: '/', title: 'Shell Handbook', body: `<p>The operations group's handbook for the shell every server runs. Chapters:</p>${chapterToc(pages)}` },
      { path: '/handbook/index/', title: 'Handbook index A-Z', body: azIndex(pages) },
    ],
    documents: [],
  };
}

function identityLegacy(port: number): Host {
  const names = execFileSync('ls', [PAM_DOCS], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => /^(sag|adg|mwg)-.*\.html$/.test(f))
    .sort();
  const pages: Page[] = names.map((file) => {
    const s = sectionsOf(readFileSync(join(PAM_DOCS, file), 'utf8'), 2);
    const title = s.title.replace(/^[\d.]+\s*/, '');
    return { path: `/pam/${file.replace(/\.html$/, '.htm')}`, title, lead: s.lead, sections: s.sections };
  });
  const guide = (prefix: string) => pages.filter((p) => p.path.startsWith(`/pam/${prefix}-`));
  return {
    port,
    name: 'Identity & Access Services',
    charset: 'windows-1252',
    pages,
    hubs: [
      { path: '/', title: 'Identity & Access Services', body: `<p>Sign-on, passwords and the pluggable authentication modules on our servers. Three guides:</p>${tocList([{ title: 'System administrators’ guide', path: '/guides/sag.htm' }, { title: 'Application developers’ guide', path: '/guides/adg.htm' }, { title: 'Module writers’ guide', path: '/guides/mwg.htm' }])}` },
      { path: '/guides/sag.htm', title: 'Linux-PAM System Administrators’ Guide: contents', body: chapterToc(guide('sag')) },
      { path: '/guides/adg.htm', title: 'Linux-PAM Application Developers’ Guide: contents', body: chapterToc(guide('adg')) },
      { path: '/guides/mwg.htm', title: 'Linux-PAM Module Writers’ Guide: contents', body: chapterToc(guide('mwg')) },
    ],
    documents: [],
  };
}

/**
 * The Debian files the intranet is made from, or a line saying what to install: a missing package
 * would otherwise end the run in a stack trace, and a missing man page would silently leave a page
 * empty, so the judged queries would no longer fit the pages.
 */
function missingSources(): string | undefined {
  const sources: [path: string, debianPackage: string][] = [
    ...SQLITE_PAGES.map((name): [string, string] => [join(SQLITE_DOCS, `${name}.html`), 'sqlite3-doc']),
    [BASH_REF, 'bash-doc'],
    [PAM_DOCS, 'libpam-doc'],
  ];
  const packages = new Set(sources.filter(([path]) => !existsSync(path)).map(([, pkg]) => pkg));
  if (packages.size > 0) return `the intranet is made from Debian documentation: apt-get install -y ${[...packages].join(' ')}`;
  const noManual = MAN_PAGES.filter((command) => manText(command).trim() === '');
  if (noManual.length > 0) return `\`man -P cat ${noManual[0]!}\` prints nothing (${noManual.length} of the man pages): install man-db and the pages`;
  return undefined;
}

function manText(command: string): string {
  return execFileSync('sh', ['-c', `man -P cat ${command} 2>/dev/null | col -bx`], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '80', LANG: 'C.UTF-8' } });
}

/** A man page as sections at its headings (lines starting in column 0 or 3). */
function manPage(command: string): Page {
  const lines = manText(command).split('\n').slice(1, -2);
  const sections: Section[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length > 0 && sections.length > 0) sections[sections.length - 1]!.paragraphs.push(para.join(' ').replace(/\s+/g, ' ').trim());
    para = [];
  };
  for (const line of lines) {
    if (/^ {0,3}\S/.test(line)) {
      flush();
      const heading = line.trim();
      sections.push({ heading: /^[A-Z ]+$/.test(heading) ? heading.charAt(0) + heading.slice(1).toLowerCase() : heading, level: /^\S/.test(line) ? 2 : 3, paragraphs: [] });
    } else if (line.trim() === '') flush();
    else para.push(line.trim());
  }
  flush();
  const name = sections.find((s) => s.heading === 'Name')?.paragraphs[0] ?? command;
  return { path: `/tools/${command}.html`, title: `${command}(1): ${name.replace(/^\S+\s+-\s+/, '')}`, lead: [], sections: sections.filter((s) => s.paragraphs.length > 0 && s.heading !== 'Name') };
}

/** Dated posts from SQLite's release history, newest first: the ops portal's news. */
function newsPosts(): Page[] {
  const html = readFileSync(join(SQLITE_DOCS, 'changes.html'), 'latin1');
  const entries = html.split(/<h3>/).slice(1, NEWS_POSTS + 1);
  return entries.map((entry) => {
    const m = /^(\d{4})-(\d\d)-(\d\d) \(([\d.]+)\)<\/h3>([\s\S]*)/.exec(entry)!;
    const [, y, mo, d, version, rest] = m;
    const text = paragraphs(rest!.split(/<p><b>Hashes:/)[0]!);
    return { path: `/news/${y}/${mo}/${d}/sqlite-${version!.replace(/\./g, '-')}-released/`, title: `Database engine ${version} rolled out`, date: `${y}-${mo}-${d}`, lead: [`The embedded database library on all managed hosts was updated to version ${version}. Changes in this release:`], sections: [{ heading: 'Changes', level: 2, paragraphs: text }] };
  });
}

function opsPortal(port: number): Host {
  const tools = MAN_PAGES.map(manPage);
  const posts = newsPosts();
  const hubs: Host['hubs'] = [
    { path: '/', title: 'Ops Portal', body: `<p>News from the platform team and the command reference for our servers.</p>${tocList([{ title: 'News archive', path: '/news/' }, { title: 'Command reference', path: '/tools/' }])}` },
    { path: '/tools/', title: 'Command reference', body: chapterToc(tools) },
  ];
  const pagesOfNews = Math.ceil(posts.length / NEWS_PER_PAGE);
  for (let n = 1; n <= pagesOfNews; n++) {
    const slice = posts.slice((n - 1) * NEWS_PER_PAGE, n * NEWS_PER_PAGE);
    const teasers = slice.map((p) => `<article><h2><a href="${p.path}">${escape(p.title)}</a></h2><p class="date">${p.date}</p><p>${escape(teaser([...p.lead, ...p.sections[0]!.paragraphs]))} <a href="${p.path}">Read more</a></p></article>`).join('\n');
    const pager = `<nav class="pager">${n > 1 ? `<a href="${newsPage(n - 1)}">Newer posts</a>` : ''} Page ${n} of ${pagesOfNews} ${n < pagesOfNews ? `<a href="${newsPage(n + 1)}">Older posts</a>` : ''}</nav>`;
    hubs.push({ path: newsPage(n), title: n === 1 ? 'News' : `News: page ${n}`, body: teasers + pager });
  }
  return { port, name: 'Ops Portal', charset: 'utf-8', pages: [...tools, ...posts], hubs, documents: [] };
}

function newsPage(n: number): string {
  return n === 1 ? '/news/' : `/news/page/${n}/`;
}

function teaser(paras: string[]): string {
  const words = paras.join(' ').split(' ');
  return words.slice(0, 45).join(' ') + (words.length > 45 ? ' …' : '');
}

// --- listings and the template ------------------------------------------------------------------

function tocList(items: { title: string; path: string }[]): string {
  return `<ul>${items.map((i) => `<li><a href="${i.path}">${escape(i.title)}</a></li>`).join('')}</ul>`;
}

function sectionIds(page: Page): string[] {
  const seen = new Map<string, number>();
  return page.sections.map((s) => {
    const base = slug(s.heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n + 1}`;
  });
}

/** A chapter's table of contents: every page with its section headings, linked to `page#id`. */
function chapterToc(pages: Page[]): string {
  return `<ol class="toc">${pages
    .map((p) => {
      const ids = sectionIds(p);
      const subs = p.sections.map((s, i) => (s.level <= 3 ? `<li><a href="${p.path}#${ids[i]}">${escape(s.heading)}</a></li>` : '')).join('');
      return `<li><a href="${p.path}">${escape(p.title)}</a>${subs ? `<ol>${subs}</ol>` : ''}</li>`;
    })
    .join('\n')}</ol>`;
}

/** An alphabetical index of every page title and section heading. */
function azIndex(pages: Page[]): string {
  const entries = pages.flatMap((p) => {
    const ids = sectionIds(p);
    return [{ text: p.title, href: p.path }, ...p.sections.map((s, i) => ({ text: s.heading, href: `${p.path}#${ids[i]}` }))];
  });
  entries.sort((a, b) => (a.text.toLowerCase() < b.text.toLowerCase() ? -1 : a.text.toLowerCase() > b.text.toLowerCase() ? 1 : a.href < b.href ? -1 : 1));
  const letters = new Map<string, typeof entries>();
  for (const e of entries) {
    const letter = /[a-z]/i.test(e.text[0] ?? '') ? e.text[0]!.toUpperCase() : '#';
    letters.set(letter, [...(letters.get(letter) ?? []), e]);
  }
  return [...letters].map(([l, es]) => `<h2>${l}</h2><ul>${es.map((e) => `<li><a href="${e.href}">${escape(e.text)}</a></li>`).join('')}</ul>`).join('\n');
}

const HOST_NAMES = ['Data Platform Wiki', 'Shell Handbook', 'Identity & Access Services', 'Ops Portal'];

/** The host's heavy template around a page's content: the same on every page of the host. */
function template(host: Host, title: string, content: string): string {
  const popular = [...host.pages].sort((a, b) => (a.path < b.path ? -1 : 1)).filter((_, i) => i % 5 === 0).slice(0, 8);
  const meta = host.charset === 'windows-1252' ? '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">' : '<meta charset="utf-8">';
  return `<!DOCTYPE html>
<html lang="en"><head>${meta}<title>${escape(title)} | ${escape(host.name)} | Northwind Intranet</title></head>
<body>
<header class="site-header"><a href="/">${escape(host.name)}</a> · Northwind Intranet · Service desk: extension 4400 · Report an outage · Staff directory · Log in with your company account</header>
<nav class="top-nav"><ul>${HOST_NAMES.map((n, i) => `<li><a href="http://127.0.0.1:${BASE_PORT + i}/">${escape(n)}</a></li>`).join('')}<li><a href="/">Home</a></li><li><a href="/">Search help</a></li><li><a href="/">Policies</a></li><li><a href="/">Security notices</a></li><li><a href="/">Holidays calendar</a></li></ul></nav>
<aside class="sidebar-left"><h3>Popular pages</h3><ul>${popular.map((p) => `<li><a href="${p.path}">${escape(p.title)}</a></li>`).join('')}</ul>
<h3>Need help?</h3><p>Open a ticket with the service desk for database, shell, password or server access problems. Include the host name and the exact error message.</p></aside>
<main>
<h1>${escape(title)}</h1>
${content}
</main>
<aside class="sidebar-right"><h3>Announcements</h3><p>Scheduled maintenance every first Sunday of the month, 02:00 to 04:00. Servers may restart and sessions end without notice. Back up your files and commit your work.</p><h3>Related sites</h3><ul>${HOST_NAMES.map((n, i) => `<li><a href="http://127.0.0.1:${BASE_PORT + i}/">${escape(n)}</a></li>`).join('')}</ul></aside>
<footer class="site-footer"><p>© Northwind Traders internal documentation. For internal use only: do not share outside the company. Content owners review pages yearly; report errors to the page owner or the service desk. Accessibility statement · Privacy notice · Acceptable use policy · Cookie settings</p></footer>
</body></html>
`;
}

function pageContent(page: Page): string {
  const ids = sectionIds(page);
  const date = page.date ? `<p class="date">Posted ${page.date}</p>` : '';
  const lead = page.lead.map((p) => `<p>${escape(p)}</p>`).join('\n');
  const sections = page.sections
    .map((s, i) => {
      const level = Math.min(Math.max(s.level, 2), 4);
      return `<section><h${level} id="${ids[i]}">${escape(s.heading)}</h${level}>\n${s.paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}</section>`;
    })
    .join('\n');
  return `${date}${lead}\n${sections}`;
}

function hosts(): Host[] {
  return [dataWiki(BASE_PORT), shellHandbook(BASE_PORT + 1), identityLegacy(BASE_PORT + 2), opsPortal(BASE_PORT + 3)];
}

function fileOf(out: string, port: number, path: string): string {
  return join(out, String(port), path.endsWith('/') ? `${path}index.html` : path);
}

export function generate(out: string): number {
  rmSync(out, { recursive: true, force: true });
  let files = 0;
  for (const host of hosts()) {
    const write = (path: string, html: string) => {
      const file = fileOf(out, host.port, path);
      mkdirSync(dirname(file), { recursive: true });
      // The legacy host's bytes are windows-1252; characters it lacks become '?', as a legacy CMS did.
      writeFileSync(file, host.charset === 'windows-1252' ? iconv.encode(html, 'win1252') : html);
      files++;
    };
    for (const page of host.pages) write(page.path, template(host, page.title, pageContent(page)));
    for (const hub of host.hubs) write(hub.path, template(host, hub.title, hub.body));
    for (const doc of host.documents) {
      mkdirSync(dirname(fileOf(out, host.port, doc.path)), { recursive: true });
      writeFileSync(fileOf(out, host.port, doc.path), doc.bytes);
    }
  }
  return files;
}

export async function serve(out: string): Promise<Server[]> {
  const servers = hosts().map((host) =>
    createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
      const file = fileOf(out, host.port, path);
      if (!file.startsWith(join(out, String(host.port))) || !existsSync(file)) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const type = file.endsWith('.pdf') ? 'application/pdf' : `text/html; charset=${host.charset}`;
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    }),
  );
  await Promise.all(servers.map((s, i) => new Promise<void>((resolve) => s.listen(BASE_PORT + i, '127.0.0.1', resolve))));
  return servers;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${String(code)}`))));
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const flag = (name: string, fallback: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? (argv.splice(i, 2)[1] ?? fallback) : fallback;
  };
  const mode = argv.shift() ?? 'run';
  const out = flag('--out', '/tmp/intranet-site');
  const data = flag('--data', '/tmp/intranet-data');
  const missing = mode === 'serve' && existsSync(out) ? undefined : missingSources();
  if (missing !== undefined) {
    console.error(`intranet: ${missing}`);
    process.exit(1);
  }
  if (mode === 'generate') {
    console.log(`${generate(out)} files in ${out}`);
    return;
  }
  if (mode !== 'serve' && mode !== 'run') throw new Error(`unknown mode ${mode}: generate, serve or run`);
  if (mode === 'run' || !existsSync(out)) console.log(`${generate(out)} files in ${out}`);
  const servers = await serve(out);
  console.log(`serving ${servers.length} hosts on 127.0.0.1:${BASE_PORT}-${BASE_PORT + servers.length - 1}`);
  if (mode === 'serve') return;
  try {
    rmSync(data, { recursive: true, force: true });
    const seeds = servers.map((_, i) => `http://127.0.0.1:${BASE_PORT + i}/`);
    await run('node', ['bin/gleaner', 'crawl', ...seeds, '--data', data, '--delay', '0', '--max-pages', '5000']);
    await run('node', ['bin/gleaner', 'index', '--data', data]);
    await run('node', ['dist/bench/site-relevance.js', '--data', data, '--site', 'http://127.0.0.1:', '--docroot', out, '--queries', join('bench', 'intranet-queries.tsv'), ...argv]);
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}

await main();
