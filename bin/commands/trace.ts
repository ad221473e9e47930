// `gleaner trace URL [--query Q]`: one URL's whole journey through Gleaner, step by step, each with the
// file that decided it (shared/trace.ts): the crawl side live (crawler/trace-fetch.ts: robots.txt,
// politeness, fetch, charset, extraction), then what the data dir holds (the stored record, the index
// entries, the inbound anchors: web/trace.ts) and, with --query, how the page ranked and why.

import { existsSync } from 'node:fs';
import { crawlOptionsFromArgs } from './crawl.js';
import { DEFAULT_CRAWL_OPTIONS, storedCrawlSettings, traceFetch, type CrawlOptions, type CrawlSettings } from '../../crawler/index.js';
import { checkDataDir } from '../../shared/data-dir.js';
import { isGleanerError, GleanerError } from '../../shared/errors.js';
import { openStore, type PageRecord } from '../../shared/store/index.js';
import { formatTrace, type TraceStep } from '../../shared/trace.js';
import { canonicalizeUrl, uncrawlableReason } from '../../shared/url.js';
import { openSearchEngine, parseAsSearched, queryStep, WEB_DEFAULTS, type SynonymRules } from '../../web/index.js';
import { readSynonymsFile } from '../site-file.js';
import { parseCommandArgs, type Command } from '../command.js';
import { terminalSafe } from '../terminal-text.js';

const HELP = `Usage: gleaner trace URL [--query Q] [--synonyms FILE] [--data DIR] [--config FILE] [--json]

Follows one URL through the whole pipeline and says, at each step, what happened and which file of
Gleaner decided it: the URL made canonical, robots.txt (the group and line that allow or block it, and
the 1996 draft's verdict when it differs), the politeness wait, the fetch hop by hop (conditional when
the store has the page), the charset, what extraction kept (title, headings, text, links, META robots),
the stored record, the page's tokens and stems per field, its index entries, the anchor texts of the
pages linking to it, and with --query, its rank and the parts of its score. The fetch is live: one
robots.txt request and one request per redirect hop, as the crawler makes them.

Options:
  --query Q      also show how the page ranks for this query, and why
  --synonyms FILE
                 the site's synonyms, as gleaner serve --synonyms reads them, for --query
  --data DIR     the data dir whose store and index to read (default: data; a
                 DIR given must exist, the default need not: then only the
                 live steps are shown)
  --config FILE  a config file: its user agent, robots mode, delays and timeouts (see gleaner crawl)
  --json         the steps as JSON
  -h, --help     this help
`;

const FLAGS = {
  query: { type: 'string' },
  synonyms: { type: 'string' },
  data: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const traceCommand: Command = {
  name: 'trace',
  summary: 'follow one URL through crawl, store, index and ranking, with the file behind each step',
  help: HELP,
  async run(argv) {
    const { values: v, positionals, help } = parseCommandArgs('trace', argv, FLAGS);
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    if (positionals.length !== 1) throw new GleanerError('BAD_ARGUMENT', 'trace: give one URL, e.g. gleaner trace http://intranet.example/page.html');
    const input = positionals[0]!;
    const dataDir = v.data ?? 'data';
    // A data dir that cannot be one (a file, a store's own folder) is refused before the live fetch, and
    // so is a --data typed that does not exist: a mistyped path would trace the live fetch and report
    // "no crawl store" as if the crawl had kept nothing. The default one missing is not refused: before
    // any crawl the crawl-side steps stand alone, and the store step says there is none.
    checkDataDir(dataDir, { create: false, write: false });
    if (v.data !== undefined && !existsSync(dataDir)) throw new GleanerError('NOT_FOUND', `trace: ${dataDir} does not exist: give --data the data dir a crawl wrote, or leave --data out to trace the live fetch alone`);
    // Without a config file the URL is judged as the data dir's crawl judged it: its agent (whose
    // robots.txt group applies), delay and the rest (crawler/crawl-settings.ts), not the defaults.
    const options: CrawlOptions = v.config === undefined ? { ...DEFAULT_CRAWL_OPTIONS, ...(await crawlSettingsOf(dataDir)), dataDir, seeds: [] } : crawlOptionsFromArgs(['--config', v.config, input]).options;
    const url = canonicalizeUrl(input, undefined, { stripParams: options.stripParams });
    if (url === undefined) throw new GleanerError('BAD_ARGUMENT', `trace: ${uncrawlableReason(input)}: "${input}"`);
    const synonyms = v.synonyms === undefined ? undefined : readSynonymsFile('trace', v.synonyms);
    const stored = await storedRecord(dataDir, url);
    const fetched = await traceFetch(input, options, stored.page);
    const steps: TraceStep[] = [...fetched.steps, stored.step, ...(await indexSide(dataDir, url, stored.page, v.query, synonyms))];
    process.stdout.write(v.json ? `${JSON.stringify({ url, steps }, null, 2)}\n` : terminalSafe(formatTrace(steps)));
    return 0;
  },
};

/** The settings the data dir's last crawl ran with; none when there is no store to read (or it is busy). */
async function crawlSettingsOf(dataDir: string): Promise<CrawlSettings | undefined> {
  try {
    const store = await openStore(dataDir, { mustExist: true });
    try {
      return await storedCrawlSettings(store);
    } finally {
      await store.close();
    }
  } catch (e) {
    if (!isGleanerError(e)) throw e;
    return undefined;
  }
}

async function storedRecord(dataDir: string, url: string): Promise<{ page: PageRecord | undefined; step: TraceStep }> {
  const base = { title: 'The stored record', decidedBy: ['crawler/page.ts', 'shared/store/store.ts'] };
  let page: PageRecord | undefined;
  try {
    const store = await openStore(dataDir, { mustExist: true });
    try {
      page = await store.getPage(url);
    } finally {
      await store.close();
    }
  } catch (e) {
    if (!isGleanerError(e)) throw e;
    const note = e.code === 'STORE_LOCKED' ? 'A running crawl holds the store; trace again when it ends.' : 'The steps before this one asked the site itself; the store and the index say what a crawl kept.';
    return { page: undefined, step: { ...base, verdict: 'not read', facts: [['store', e.message]], note } };
  }
  if (page === undefined) return { page, step: { ...base, verdict: 'not in the store', facts: [['data dir', dataDir]], note: 'Not crawled yet: out of scope, blocked, beyond --max-depth or --max-pages, or no page links to it.' } };
  return {
    page,
    step: {
      ...base,
      verdict: `${page.state}, HTTP ${page.status}, fetched ${page.fetchedAt}`,
      facts: [
        ['state', page.state + (page.duplicateOf !== undefined ? ` (a copy of ${page.duplicateOf})` : '') + (page.error !== undefined ? `: ${page.error}` : '')],
        ['content type', page.contentType || '(none)'],
        ['depth', `${page.depth} link hops from a seed`],
        ['text', `${page.text.length} characters`],
        ['links', String(page.links.length)],
        ['content fingerprint', page.contentHash],
        ['validators', [page.etag !== undefined ? `ETag ${page.etag}` : '', page.lastModified !== undefined ? `Last-Modified ${page.lastModified}` : ''].filter(Boolean).join('; ') || '(none: a recrawl fetches it whole)'],
      ],
      note: 'The page, its links and the URLs it added to the queue were written in one atomic batch: after a crash either all of it is there or none.',
    },
  };
}

async function indexSide(dataDir: string, url: string, page: PageRecord | undefined, query: string | undefined, synonyms: SynonymRules | undefined): Promise<TraceStep[]> {
  let engine;
  try {
    engine = await openSearchEngine(dataDir);
  } catch (e) {
    if (!isGleanerError(e)) throw e;
    return [{ title: 'The index', decidedBy: ['indexer/build.ts'], verdict: 'no index to read', facts: [['index', e.message]], note: 'Run gleaner index.' }];
  }
  try {
    const steps = engine.trace(url);
    if (steps === undefined) {
      const indexed = (other: string | undefined) => other !== undefined && other !== url && engine.trace(canonicalizeUrl(other) ?? other) !== undefined;
      return [{ title: 'The index', decidedBy: ['indexer/read-store.ts'], verdict: 'not in the index', facts: [['documents', String(engine.summary().documents)]], note: notIndexedNote(page, indexed) }];
    }
    if (query !== undefined) steps.push(queryStep(engine, parseAsSearched(query, { ...WEB_DEFAULTS, ...(synonyms ? { synonyms } : {}) }), query, url));
    return steps;
  } finally {
    engine.close();
  }
}

/** Why this stored page is not in the index, when its record says (the indexer's reasons,
 * indexer/read-store.ts); the general note otherwise. `indexed` says whether another URL is in the index. */
function notIndexedNote(page: PageRecord | undefined, indexed: (url: string | undefined) => boolean): string {
  if (page === undefined) return NOT_INDEXED;
  if (page.state === 'redirect') return `It is stored as a redirect to ${page.finalUrl}${indexed(page.finalUrl) ? ": that page is indexed, with this URL's inbound links and anchor texts." : '.'}`;
  if (page.state === 'duplicate') return `Its text is a copy of ${page.duplicateOf ?? 'another page'}${indexed(page.duplicateOf) ? ', which is indexed in its place.' : '.'}`;
  if (page.state !== 'ok') return `It is stored in state ${page.state}${page.error !== undefined ? ` (${page.error})` : ''}: only pages in state ok are indexed.`;
  if (!page.robots.index) return 'Its META robots or X-Robots-Tag says noindex.';
  if (indexed(page.canonical)) return `Its rel=canonical names ${page.canonical!}, which is indexed in its place, with this page's inbound links and anchor texts.`;
  return NOT_INDEXED;
}

/** Why a page may be missing from the index, for the CLI and the page alike. */
const NOT_INDEXED = 'Only stored pages in state ok, not noindex and not a copy of another, are indexed; or the index was built before the page was crawled (run gleaner index).';
