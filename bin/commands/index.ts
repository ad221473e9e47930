// `gleaner index [--data DIR] [--store URL] [--full] [--analyze-threads N] [--json]`: builds <data>/index/ from the crawl store, with a progress line
// on a terminal and a closing summary. Defaults live in indexer/options.ts.

import { checkDataDir, dataDirError } from '../../shared/data-dir.js';
import { GleanerError } from '../../shared/errors.js';
import { isPostgresUrl } from '../../shared/store/index.js';
import { DEFAULT_INDEXER_OPTIONS, buildIndex, type IndexBuildSummary, type IndexProgress } from '../../indexer/index.js';
import { integerFlag, parseCommandArgs, rejectPositionals, type Command } from '../command.js';
import { progressLine } from '../progress.js';
import { bar, duration } from '../progress-format.js';
import { defaultHeapMb } from '../heap.js';

const HELP = `Usage: gleaner index [options]

Builds the search index from the pages a crawl stored in the data dir. A second run re-analyses only
pages that changed (or whose inbound anchor texts changed), drops pages that are gone, and recomputes
link counts. The new index replaces the old one atomically: \`gleaner serve\` keeps
answering from the old one meanwhile, and a crash leaves the old one intact.

Options:
  --data DIR   data dir (default: data); the index is written here
  --store URL  read the pages from a shared crawl's PostgreSQL store (postgres://USER@HOST/DB)
               instead of the data dir's own store
  --full       re-analyse every page instead of only the changed ones
  --analyze-threads N
               worker threads that analyse pages, 0 for none (default: one per core, ${DEFAULT_INDEXER_OPTIONS.analyzeThreads} here)
  --json       print the summary as one JSON object (for scripts; \`serve --recrawl-every\` reads it)
  -h, --help   this help

Environment:
  GLEANER_HEAP_MB=N
               the heap the build may use, in MiB (default: three quarters of this machine's memory,
               ${defaultHeapMb()} here; Node's own default is about 4 GiB, a build takes about 17 KB a page)
`;

const FLAGS = {
  data: { type: 'string' },
  store: { type: 'string' },
  full: { type: 'boolean' },
  'analyze-threads': { type: 'string' },
  json: { type: 'boolean' },
} as const;

const PHASES: Record<IndexProgress['phase'], string> = {
  read: 'reading pages',
  links: 'counting links',
  analyze: 'analysing',
  write: 'writing',
};

const number = new Intl.NumberFormat('en-US');

/** `index: analysing 5,000 of 21,187 pages [####----------------] 23%, about 20 s of it left`: a bar
 * and what is left of the phase when its total is known, a count otherwise. */
export function formatIndexProgress(p: IndexProgress, secondsLeft?: number): string {
  if (p.total <= 0 || p.phase === 'write') return `index: ${PHASES[p.phase]} ${p.phase === 'write' ? '' : number.format(p.done)}`.trimEnd();
  const left = secondsLeft === undefined || p.done >= p.total ? '' : `, about ${duration(secondsLeft)} of it left`;
  return `index: ${PHASES[p.phase]} ${number.format(p.done)} of ${number.format(p.total)} ${UNITS[p.phase]} ${bar(p.done, p.total)}${left}`;
}

const UNITS: Record<IndexProgress['phase'], string> = { read: 'pages', links: 'links', analyze: 'pages', write: '' };

/** Seconds left of a phase at the rate it has gone since it started; undefined before the rate is known. */
export function phaseSecondsLeft(p: IndexProgress, phaseStartedMs: number, nowMs: number): number | undefined {
  const seconds = (nowMs - phaseStartedMs) / 1000;
  const { done, total } = p;
  if (total <= 0 || done <= 0 || seconds < MIN_RATE_SECONDS) return undefined;
  return (total - done) / (done / seconds);
}

/** A phase's rate is not trusted before it has run this long (its first batches include threads starting). */
const MIN_RATE_SECONDS = 1;

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatIndexSummary(s: IndexBuildSummary): string {
  const skipped = Object.entries(s.skipped).map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  const how = s.full ? 'full build' : `incremental: ${s.analysed} new or changed, ${s.reused} unchanged, ${s.removed} removed`;
  return [
    `indexed ${s.documents} documents, ${s.terms} terms, ${formatBytes(s.bytesOnDisk)} on disk in ${s.seconds.toFixed(2)} s (${how})`,
    `  pages not indexed: ${skipped}`,
    `  index: ${s.indexDir}`,
  ].join('\n');
}

export const indexCommand: Command = {
  name: 'index',
  summary: 'build the search index from the crawled pages (incremental; --full rebuilds)',
  help: HELP,
  async run(argv) {
    const { values, positionals, help } = parseCommandArgs('index', argv, FLAGS);
    rejectPositionals('index', positionals);
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    const dataDir = values.data ?? 'data';
    const store = values.store;
    const analyzeThreads = integerFlag('index', 'analyze-threads', values['analyze-threads'], DEFAULT_INDEXER_OPTIONS.analyzeThreads, 0, 64);
    if (store !== undefined && !isPostgresUrl(store)) throw new GleanerError('BAD_ARGUMENT', `--store takes a postgres:// URL (got ${JSON.stringify(store)}); pages in a data dir are read with --data`);
    // The index is written into the data dir: it must be a writable dir with room (a missing one is the store's message).
    checkDataDir(dataDir, { create: store !== undefined, write: true });
    const progress = progressLine();
    let phase: IndexProgress['phase'] | undefined;
    let phaseStartedMs = 0;
    const onProgress = (p: IndexProgress): void => {
      const now = performance.now();
      if (p.phase !== phase) [phase, phaseStartedMs] = [p.phase, now];
      progress.update(formatIndexProgress(p, phaseSecondsLeft(p, phaseStartedMs, now)));
    };
    try {
      const summary = await buildIndex(dataDir, {
        full: values.full ?? false,
        analyzeThreads,
        ...(store !== undefined ? { store } : {}),
        onProgress,
      });
      progress.done();
      process.stdout.write((values.json === true ? JSON.stringify(summary) : formatIndexSummary(summary)) + '\n');
      return 0;
    } catch (e) {
      throw dataDirError(e, dataDir) ?? e;
    } finally {
      progress.done();
    }
  },
};
