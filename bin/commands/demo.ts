// `gleaner demo`: the whole pipeline in one command, on the bundled demo intranet. It serves the site on
// 127.0.0.1 (a random free port), crawls it into its own data dir, indexes it and serves search, until
// Ctrl-C stops all three.

import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { crawl } from '../../crawler/index.js';
import { buildIndex } from '../../indexer/index.js';
import { checkDataDir } from '../../shared/data-dir.js';
import { GleanerError } from '../../shared/errors.js';
import { checkCanListen, parsePromoted, serve, untilInterrupted } from '../../web/index.js';
import { integerFlag, parseCommandArgs, rejectPositionals, type Command } from '../command.js';
import { demoSiteDir, startDemoSite } from '../demo/server.js';
import { readSynonymsFile } from '../site-file.js';
import { progressLine } from '../progress.js';
import { formatProgress, formatSummary } from './crawl.js';

export const DEMO_DEFAULTS = {
  dataDir: join('data', 'demo'),
  port: 3000,
  host: '127.0.0.1',
  /** The demo site is ours and on loopback: no delay is owed to it. */
  delayMs: 0,
  maxPages: 1_000,
} as const;

/** A file that marks a data dir as the demo's own, so a rerun may clear it without losing anyone's crawl. */
const DEMO_MARKER = '.gleaner-demo';

const HELP = `Usage: gleaner demo [options]

Serves the bundled demo intranet (a fictional college, in English, Spanish, Chinese and Russian) on
127.0.0.1, crawls it, indexes it and serves search over it, with the site's synonyms
(bin/demo/synonyms.txt: try "vacation") and its promoted pages (bin/demo/elevate.xml: try
"help"). Ctrl-C stops everything.

Options:
  --data DIR   where the demo's store and index go; cleared at each run (default: ${DEMO_DEFAULTS.dataDir})
  --port N     port of the search page, 0 for any free one (default: ${DEMO_DEFAULTS.port})
  -h, --help   this help
`;

const FLAGS = { data: { type: 'string' }, port: { type: 'string' } } as const;

/** Empties the demo's data dir, refusing to touch a dir that holds anything but an earlier demo. */
async function prepareDemoDir(dataDir: string): Promise<void> {
  if (existsSync(dataDir)) {
    const entries = await readdir(dataDir);
    if (entries.length > 0 && !entries.includes(DEMO_MARKER)) {
      throw new GleanerError('BAD_ARGUMENT', `demo: ${dataDir} holds data that is not the demo's; choose another --data dir`);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, DEMO_MARKER), 'This data dir belongs to `gleaner demo`, which clears it at each run.\n');
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'serve the bundled demo intranet, crawl it, index it, and serve search',
  help: HELP,
  async run(argv) {
    const { values: v, positionals, help } = parseCommandArgs('demo', argv, FLAGS);
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    rejectPositionals('demo', positionals);
    const port = integerFlag('demo', 'port', v.port, DEMO_DEFAULTS.port, 0, 65535);
    const dataDir = v.data ?? DEMO_DEFAULTS.dataDir;
    checkDataDir(dataDir, { create: true, write: true });
    // A port in use is said before the crawl and the index, not after them.
    if (port !== 0) await checkCanListen(DEMO_DEFAULTS.host, port);
    await prepareDemoDir(dataDir);

    const site = await startDemoSite();
    const closers: (() => Promise<void>)[] = [() => site.close()];
    try {
      process.stdout.write(`demo intranet: ${site.url}/\n`);
      const progress = progressLine();
      const crawled = await crawl(
        { dataDir, seeds: [`${site.url}/`], delayMs: DEMO_DEFAULTS.delayMs, maxPages: DEMO_DEFAULTS.maxPages },
        { onProgress: (p) => progress.update(formatProgress(p)) },
      );
      progress.done();
      process.stdout.write(formatSummary(crawled) + '\n');

      const indexed = await buildIndex(dataDir, { full: true, onProgress: (p) => progress.update(`index: ${p.phase} ${p.done}${p.total ? `/${p.total}` : ''}`) });
      progress.done();
      process.stdout.write(`indexed ${indexed.documents} documents, ${indexed.terms} terms in ${indexed.seconds.toFixed(2)} s\n`);

      // The demo's synonyms, beside its site: "vacation" finds the annual leave policy.
      const synonyms = readSynonymsFile('demo', join(dirname(demoSiteDir()), 'synonyms.txt'));
      // Its promoted pages: "help" recommends the help desk, at the address the demo serves it on.
      const elevate = join(dirname(demoSiteDir()), 'elevate.xml');
      const promoted = parsePromoted(readFileSync(elevate, 'utf8').replaceAll('http://intranet.example', site.url), `demo: ${elevate}`);
      const running = await serve({ dataDir, port, host: DEMO_DEFAULTS.host, web: { synonyms, promoted } });
      closers.unshift(() => running.close());
      process.stdout.write(`Gleaner search: ${running.url}  (Ctrl-C stops)\n`);
      await untilInterrupted();
      return 0;
    } finally {
      for (const close of closers) await close().catch(() => {});
    }
  },
};
