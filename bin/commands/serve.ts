// `gleaner serve [--data DIR] [--port N] [--host ADDR]`: the search gateway over what `gleaner index`
// built, until Ctrl-C.

import { checkDataDir } from '../../shared/data-dir.js';
import { GleanerError } from '../../shared/errors.js';
import { autoWorkerCount, DEFAULT_WORKER_COUNT_OPTIONS, isServeWorker, normalizeOrigin, serve, serveInWorkers, untilInterrupted, workerFacts } from '../../web/index.js';
import { integerFlag, numberFlag, parseCommandArgs, rejectPositionals, type Command } from '../command.js';
import { readConfigFile } from '../config-file.js';
import { parseDuration } from '../duration.js';
import { startRecrawlLoop, type RecrawlLoop } from '../recrawl-loop.js';
import { readPromotedFile, readSynonymsFile } from '../site-file.js';

/** Flag defaults; the web gateway's own tunables are in web/defaults.ts. */
export const SERVE_DEFAULTS = { dataDir: 'data', port: 3000, host: '127.0.0.1', workers: 'auto' } as const;

const HELP = `Usage: gleaner serve [options]

Serves the search page, the JSON API (/api/search, /api/suggest), the robots.txt checker (/robots)
and the crawl statistics (/stats) over the index that \`gleaner index\` built in the data dir. When \`gleaner index\` runs again, the
new index is loaded in the background and answers within a few seconds; no restart is needed.

Options (flag > --config file > default):
  --config FILE  a config file (gleaner.config.example.json shows one): its "serve" keys are these
                 flags' names in camelCase ("allowOrigin": [...], "recrawlEvery": "6h"), its "data" the data dir
  --data DIR     data dir (default: ${SERVE_DEFAULTS.dataDir})
  --port N       TCP port, 0 for any free one (default: ${SERVE_DEFAULTS.port})
  --host ADDR    address to listen on; use 0.0.0.0 to let other machines in (default: ${SERVE_DEFAULTS.host})
  --workers N|auto
                 processes answering on the port; each loads the index, so memory grows with N.
                 auto: one per CPU core while their copies of the index fit in a quarter of the
                 machine's memory, so a large index is held once (default: ${SERVE_DEFAULTS.workers})
  --allow-origin ORIGIN
                 let pages of ORIGIN (e.g. https://www.example.org; repeatable) embed the search box:
                 they may load /embed.js and read /api/* (CORS). Without it nothing is shared with
                 other sites. Paste into a page of that site:
                   <script src="http://HOST:PORT/embed.js" defer></script>
                   <div data-gleaner></div>
  --recrawl-every DURATION
                 keep the index fresh while serving: DURATION (e.g. 6h, 30m) after the last round
                 ended, crawl the stored sites again from the crawl's seeds, under the settings
                 \`gleaner crawl\` last ran with here (scope, --include/--exclude, --max-pages,
                 --user-agent, ...), with conditional GET (a 304 keeps the stored page),
                 rebuild the index and serve it, no restart; the index is built by
                 \`gleaner index\` in a process of its own (GLEANER_HEAP_MB holds)
  --recrawl-delay SECONDS
                 wait between two requests to one host during those rounds (default: the delay
                 the crawl ran with; a site's robots.txt Crawl-delay wins when larger)
  --synonyms FILE
                 the site's synonyms, one group a line in Solr's synonyms.txt format ("k8s, kubernetes";
                 "colour => color"), searched as OR alternatives of the words typed (README.md)
  --promoted FILE
                 pages the site recommends for queries, in Solr's elevate.xml format (<query
                 text="vacation"><doc id="URL"/></query>), shown above page 1's results (README.md);
                 a page not in the index is not shown
  --robots-fetch let /robots fetch robots.txt files from URLs visitors give even when listening beyond
                 loopback (off there by default: the server would make requests on anyone's behalf)
  -h, --help     this help
`;

const FLAGS = {
  config: { type: 'string' },
  data: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  'robots-fetch': { type: 'boolean' },
  'allow-origin': { type: 'string', multiple: true },
  'recrawl-every': { type: 'string' },
  'recrawl-delay': { type: 'string' },
  workers: { type: 'string' },
  synonyms: { type: 'string' },
  promoted: { type: 'string' },
} as const;

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Whether an address only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** --workers: a count, or undefined for `auto` (autoWorkerCount decides). */
function workersFlag(raw: string): number | undefined {
  if (raw.trim() === 'auto') return undefined;
  const max = DEFAULT_WORKER_COUNT_OPTIONS.maxWorkers;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > max) {
    throw new GleanerError('BAD_ARGUMENT', `serve: --workers must be auto or a whole number from 1 to ${max}, not "${raw}"`);
  }
  return Number(raw);
}

type ServeFlags = ReturnType<typeof parseCommandArgs<typeof FLAGS>>['values'];

/** The flags over the config file's "serve" section (bin/config-file.ts): a flag given wins. */
export function serveValues(flags: ServeFlags): ServeFlags {
  if (flags.config === undefined) return flags;
  const config = readConfigFile(flags.config, { serveFlags: FLAGS });
  return { ...(config.serve as Partial<ServeFlags>), ...flags };
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve search over the index on http://127.0.0.1:3000',
  help: HELP,
  async run(argv) {
    const { values: flags, positionals, help } = parseCommandArgs('serve', argv, FLAGS);
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    const v = serveValues(flags);
    rejectPositionals('serve', positionals);
    const port = integerFlag('serve', 'port', v.port, SERVE_DEFAULTS.port, 0, 65535);
    const host = v.host ?? SERVE_DEFAULTS.host;
    if (host.trim() === '') throw new GleanerError('BAD_ARGUMENT', 'serve: --host needs an address, e.g. 127.0.0.1');
    const workers = workersFlag(v.workers ?? SERVE_DEFAULTS.workers);
    const robotsFetch = v['robots-fetch'] === true || isLoopback(host);
    const allowOrigins = (v['allow-origin'] ?? []).map((o) => {
      const origin = normalizeOrigin(o);
      if (origin === undefined) throw new GleanerError('BAD_ARGUMENT', `serve: --allow-origin needs an origin such as https://www.example.org (scheme, host, optional port; no path), not "${o}"`);
      return origin;
    });
    const recrawlEveryMs = v['recrawl-every'] === undefined ? undefined : parseDuration('serve: --recrawl-every', v['recrawl-every']);
    const recrawlDelayMs = v['recrawl-delay'] === undefined ? undefined : Math.round(numberFlag('serve', 'recrawl-delay', v['recrawl-delay'], 1, 0, 3600) * 1000);
    const synonyms = v.synonyms === undefined ? undefined : readSynonymsFile('serve', v.synonyms);
    const promoted = v.promoted === undefined ? undefined : readPromotedFile('serve', v.promoted);
    const dataDir = v.data ?? SERVE_DEFAULTS.dataDir;
    checkDataDir(dataDir, { create: false, write: false });
    const log = (m: string) => process.stderr.write(`gleaner serve: ${m}\n`);
    // Worked out in the primary only: a worker serves, however many there are.
    const count = workers ?? (isServeWorker() ? 1 : autoWorkerCount(await workerFacts(dataDir)));
    const running = await serveInWorkers(count, () => serve({ dataDir, port, host, web: { robotsFetch, allowOrigins, ...(synonyms ? { synonyms } : {}), ...(promoted ? { promoted } : {}) } }), log);
    if (!isServeWorker()) {
      if (!robotsFetch) process.stdout.write('/robots fetches no URLs on this address (see --robots-fetch)\n');
      if (synonyms) process.stdout.write(`synonyms: ${synonyms.lines} line${synonyms.lines === 1 ? '' : 's'} of ${v.synonyms!}\n`);
      if (promoted) process.stdout.write(`promoted: ${plural(promoted.urls.length, 'page')} for ${plural(promoted.entries.length, 'query', 'queries')} of ${v.promoted!}\n`);
      if (allowOrigins.length > 0) process.stdout.write(`search box for other sites: ${running.url}embed.js, allowed from ${allowOrigins.join(', ')}\n`);
      process.stdout.write(`Gleaner search: ${running.url}${count > 1 ? ` (${count} workers)` : ''}  (Ctrl-C stops)\n`);
    }
    // Only the primary recrawls: the workers share its data dir and pick up the new index themselves.
    let recrawl: RecrawlLoop | undefined;
    if (recrawlEveryMs !== undefined && !isServeWorker()) {
      recrawl = startRecrawlLoop({ dataDir, everyMs: recrawlEveryMs, crawl: recrawlDelayMs === undefined ? {} : { delayMs: recrawlDelayMs }, log: (m) => process.stdout.write(`${m}\n`) });
      process.stdout.write(`recrawling the stored sites every ${v['recrawl-every']!.trim()}\n`);
    }
    await untilInterrupted();
    await recrawl?.stop();
    await running.close();
    return 0;
  },
};
