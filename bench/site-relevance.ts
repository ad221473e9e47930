// Relevance on a real site: a hand-judged query set over the Python 3.11 docs (bench/python-docs-queries.tsv)
// or the Rust 1.63 docs (bench/rust-docs-queries.tsv), Gleaner against Xapian Omega (Debian xapian-omega)
// indexing the same pages, in the same run: success@1 (the first result answers), MRR@10 and nDCG@10
// (every judged page of a query a relevant one, grade 1).
//
// Run from the project folder, with the docs served (../shared/sites/serve-docs.sh start):
//   node bin/gleaner crawl http://127.0.0.1:8081/ --data /tmp/pydocs-data --delay 0 --max-pages 3000
//   node bin/gleaner index --data /tmp/pydocs-data
//   npx tsc -p tsconfig.json && node dist/bench/site-relevance.js --data /tmp/pydocs-data \
//        [--site http://127.0.0.1:8081/] [--docroot /usr/share/doc/python3.11/html] [--per-query]
//        [--explain]   (with --per-query: Gleaner's field contributions for its top 3 and the answer)
//        [--no-omega]  (Gleaner's rows only)
//        [--rank JSON] (ranking parameters over the defaults, e.g. '{"contentLinkWeight":0.05}': variants)
//        [--searcher JSON] (searcher options over the defaults, e.g. '{"lead":{"poolSize":10,"leadWords":20,"weight":0}}', each option object whole)
// It also prints the share of Gleaner's top-10 snippets that hold site template text (bench/snippet-template.ts).
// The Rust docs:
//   node bin/gleaner crawl http://127.0.0.1:8082/ --data /tmp/rust-data --delay 0 --max-pages 40000
//   node bin/gleaner index --data /tmp/rust-data
//   node dist/bench/site-relevance.js --data /tmp/rust-data --queries bench/rust-docs-queries.tsv \
//        --site http://127.0.0.1:8082/ --docroot /usr/share/doc/rust-doc/html
// The PostgreSQL docs (robots.txt keeps out app-*.html, so the 3 queries they alone answer drop out):
//   node bin/gleaner crawl http://127.0.0.1:8083/ --data /tmp/pg-data --delay 0 --max-pages 5000
//   node bin/gleaner index --data /tmp/pg-data
//   node dist/bench/site-relevance.js --data /tmp/pg-data --queries bench/postgresql-docs-queries.tsv \
//        --site http://127.0.0.1:8083/ --docroot /usr/share/doc/postgresql-doc-15/html
//
// The query file is read in sets: a comment line after queries starts a new set (queries added later,
// judged before any system ran on them); the table has a column per set and one for all of them.
//
// Omega indexes exactly the pages Gleaner indexed (symlinks to the served files, so robots.txt
// exclusions and duplicates are the same) with `omindex`, and answers through its own CGI binary with a
// template that prints result URLs. Both are asked the query as typed: Gleaner through the gateway's
// parser (every word required), Omega with its defaults (DEFAULTOP AND since 1.3, English stemming).
// The "any word" rows ask both with OR, as a second view.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOmegaDb } from './omega-db.js';
import { openSearchEngine, type GleanerSearchEngine, type SearcherOptions } from '../web/search/index.js';
import { parseQuery } from '../web/query/index.js';
import { queryMetrics } from './metrics.js';
import { holdsTemplate, templateRuns } from './snippet-template.js';
import { DEFAULT_RANK_PARAMS, type RankParams } from '../web/search/index.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const DATA = flag('--data', '/tmp/pydocs-data');
const SITE = flag('--site', 'http://127.0.0.1:8081/');
const DOCROOT = flag('--docroot', '/usr/share/doc/python3.11/html');
const QUERIES = flag('--queries', join('bench', 'python-docs-queries.tsv'));
const OMEGA_CGI = '/usr/lib/cgi-bin/omega/omega';

interface Judged {
  query: string;
  answers: Set<string>;
  /** Which set of the file the query is in, from 0 (see the header). */
  set: number;
}

function loadJudged(): Judged[] {
  const text = readFileSync(QUERIES, 'utf8');
  const judged: Judged[] = [];
  let set = 0;
  let afterQueries = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      if (afterQueries) set++;
      afterQueries = false;
      continue;
    }
    const [query, answers] = line.split('\t');
    // Pages are scored: a fragment says where on its page the answer is, and an answer written only as
    // `page#fragment` is that page (it matched no result, and its query was left out, until 2026-12-07).
    judged.push({ query: query!, answers: new Set(answers!.split(' ').map((p) => SITE + p.replace(/#.*/, ''))), set });
    afterQueries = true;
  }
  return judged;
}

/** success@1, MRR@10 and nDCG@10 of ranked URL lists against the judged answers. */
function score(judged: Judged[], runs: string[][]): { success1: number; mrr10: number; ndcg10: number } {
  let success = 0;
  let rr = 0;
  let ndcg = 0;
  judged.forEach((j, i) => {
    const ranked = runs[i]!.slice(0, 10);
    if (ranked[0] !== undefined && j.answers.has(ranked[0])) success++;
    const at = ranked.findIndex((u) => j.answers.has(u));
    if (at >= 0) rr += 1 / (at + 1);
    ndcg += queryMetrics(ranked, new Map([...j.answers].map((a) => [a, 1]))).ndcg10;
  });
  return { success1: success / judged.length, mrr10: rr / judged.length, ndcg10: ndcg / judged.length };
}

function gleanerRun(engine: GleanerSearchEngine, q: string, any: boolean): string[] {
  const text = any ? q.split(/\s+/).join(' OR ') : q;
  return engine.search(parseQuery(text), { offset: 0, limit: 10 }).hits.map((h) => h.url);
}

/** An Omega database over the same pages Gleaner indexed; returns a function running one query. */
function omega(urls: string[]): { run: (q: string, any: boolean) => string[]; cleanup: () => void } {
  const { work, dataDir: dbDir, pageOf, cleanup } = buildOmegaDb(urls, SITE, DOCROOT);
  const templates = join(work, 'templates');
  mkdirSync(templates);
  writeFileSync(join(templates, 'urls'), '$hitlist{$field{url}\n}');
  const config = join(work, 'omega.conf');
  writeFileSync(config, `database_dir ${dbDir}\ntemplate_dir ${templates}\nlog_dir ${work}\ncdb_dir ${work}\n`);
  const run = (q: string, any: boolean): string[] => {
    const params = new URLSearchParams({ P: q, DB: 'docs', FMT: 'urls', HITSPERPAGE: '10', ...(any ? { DEFAULTOP: 'or' } : {}) });
    const out = execFileSync(OMEGA_CGI, [], {
      env: { ...process.env, OMEGA_CONFIG_FILE: config, REQUEST_METHOD: 'GET', QUERY_STRING: params.toString(), GATEWAY_INTERFACE: 'CGI/1.1' },
      encoding: 'utf8',
    });
    const body = out.slice(out.indexOf('\n\n') >= 0 ? out.indexOf('\n\n') + 2 : out.indexOf('\r\n\r\n') + 4);
    return body.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('http')).map((u) => pageOf.get(u) ?? u);
  };
  return { run, cleanup };
}

/** Gleaner's score parts for its top 3 and the best-ranked answer: where a loss comes from. */
function explainQuery(engine: GleanerSearchEngine, j: Judged): void {
  const hits = engine.search(parseQuery(j.query), { offset: 0, limit: 10 }).hits;
  const answerAt = hits.findIndex((h) => j.answers.has(h.url));
  hits.forEach((h, i) => {
    if (i >= 3 && i !== answerAt) return;
    const e = h.explain!;
    const parts = e.terms.map((t) => `${t.token}/${t.field}:${t.tf}=${t.contribution.toFixed(2)}`).join(' ');
    console.log(`    ${i + 1}${i === answerAt ? '*' : ' '} ${h.url.slice(SITE.length)} text ${e.textScore.toFixed(2)} x link ${e.linkBoost.toFixed(3)} (${e.inboundLinks} in) = ${e.score.toFixed(2)}: ${parts}`);
  });
}

async function main(): Promise<void> {
  if (!existsSync(join(DATA, 'index'))) {
    console.log(`site relevance skipped: no Gleaner index in ${DATA} (see the header for the crawl and index commands)`);
    return;
  }
  const rank: RankParams = { ...DEFAULT_RANK_PARAMS, ...(JSON.parse(flag('--rank', '{}')) as Partial<RankParams>) };
  const engine = await openSearchEngine(DATA, { rank, ...(JSON.parse(flag('--searcher', '{}')) as Partial<SearcherOptions>) });
  const indexed = new Set(engine.rankedUrls({ required: [], excluded: [], sites: [new URL(SITE).hostname], excludedSites: [], languages: [], understood: '', ignored: [] }, 1e6).map((h) => h.url));
  // A judged page Gleaner did not index (not reachable, robots.txt) is no answer either system can give.
  const judged = loadJudged()
    .map((j) => ({ ...j, answers: new Set([...j.answers].filter((a) => indexed.has(a))) }))
    .filter((j) => j.answers.size > 0);
  console.log(`${judged.length} judged queries over ${indexed.size} pages Gleaner indexed from ${SITE}`);
  const rows: [string, string[][]][] = [];
  const gleanerAll = judged.map((j) => gleanerRun(engine, j.query, false));
  const runs = await templateRuns(DATA);
  let snippets = 0;
  let withTemplate = 0;
  for (const j of judged) {
    for (const h of engine.search(parseQuery(j.query), { offset: 0, limit: 10 }).hits) {
      snippets++;
      if (holdsTemplate(h.snippet, runs.get(h.url) ?? { runs: [], content: '' })) withTemplate++;
    }
  }
  console.log(`snippets holding template text: ${withTemplate} of ${snippets} (${(withTemplate / Math.max(1, snippets)).toFixed(3)}) in Gleaner's top 10s`);
  rows.push(['Gleaner (every word, as the gateway asks)', gleanerAll]);
  rows.push(['Gleaner, any word (OR)', judged.map((j) => gleanerRun(engine, j.query, true))]);
  let omegaAll: string[][] = [];
  if (args.includes('--no-omega')) {
    // Gleaner's rows only: ranking variants compared among themselves.
  } else if (existsSync(OMEGA_CGI)) {
    const o = omega([...indexed]);
    try {
      omegaAll = judged.map((j) => o.run(j.query, false));
      rows.push(['Xapian Omega (defaults: every word)', omegaAll]);
      rows.push(['Xapian Omega, any word (DEFAULTOP=or)', judged.map((j) => o.run(j.query, true))]);
    } finally {
      o.cleanup();
    }
  } else {
    console.log(`Omega not installed (${OMEGA_CGI}): apt-get install xapian-omega`);
  }
  // One column pair per set of the query file, then all of them.
  const sets = [...new Set(judged.map((j) => j.set))];
  const columns: { name: string; members: number[] }[] = sets.map((s) => ({
    name: `set ${s + 1} (${judged.filter((j) => j.set === s).length} q)`,
    members: judged.flatMap((j, i) => (j.set === s ? [i] : [])),
  }));
  if (sets.length > 1) columns.push({ name: `all (${judged.length} q)`, members: judged.map((_, i) => i) });
  console.log(`| system | ${columns.map((c) => `${c.name} success@1 | MRR@10 | nDCG@10`).join(' | ')} |`);
  console.log(`|---|${columns.map(() => '---|---|---').join('|')}|`);
  for (const [name, runs] of rows) {
    const cells = columns.map((c) => {
      const s = score(c.members.map((i) => judged[i]!), c.members.map((i) => runs[i]!));
      return `${s.success1.toFixed(3)} | ${s.mrr10.toFixed(3)} | ${s.ndcg10.toFixed(3)}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  if (args.includes('--per-query')) {
    const top = (run: string[] | undefined) => (run ?? []).slice(0, 3).map((u) => u.slice(SITE.length)).join(' ');
    const rank = (run: string[] | undefined, j: Judged) => {
      const at = (run ?? []).slice(0, 10).findIndex((u) => j.answers.has(u));
      return at < 0 ? '-' : String(at + 1);
    };
    judged.forEach((j, i) => {
      const g = rank(gleanerAll[i], j);
      const o = rank(omegaAll[i], j);
      if (g === o) return;
      console.log(`${j.query}: answer at ${g} in Gleaner, ${o} in Omega\n  Gleaner: ${top(gleanerAll[i])}\n  Omega:   ${top(omegaAll[i])}`);
      if (args.includes('--explain')) explainQuery(engine, j);
    });
  }
  engine.close();
}

await main();
