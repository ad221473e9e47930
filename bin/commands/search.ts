// `gleaner search QUERY`: one search over the data dir's index, answered in the terminal (or as the JSON
// of /api/search with --json), without starting a server: the same parser, engine and spelling
// correction the gateway runs (web/run-search.ts), as Xapian's `quest` and Lucene's demo SearchFiles
// let a reader try an index from the shell.

import { checkDataDir } from '../../shared/data-dir.js';
import { GleanerError } from '../../shared/errors.js';
import { shellQuoted, shellWord } from '../../shared/shell-word.js';
import { apiAnswer, formatCount, formatSeconds, HttpError, openSearchEngine, promotedView, resultView, runSearch, SORT_ORDERS, WEB_DEFAULTS, type ResultView, type SearchRun } from '../../web/index.js';
import { integerFlag, parseCommandArgs, type Command } from '../command.js';
import { terminalSafe } from '../terminal-text.js';
import { readPromotedFile, readSynonymsFile } from '../site-file.js';

const HELP = `Usage: gleaner search QUERY... [--data DIR] [--page N] [--size N] [--sort ORDER] [--explain] [--literal]
                      [--synonyms FILE] [--promoted FILE] [--json]

Searches the index that \`gleaner index\` built in the data dir and prints one page of results: each
one's title (and the section it links to), its URL and its snippet, the query's words in bold on a
terminal, and its date when it has one. The query language is the search box's: every word required,
"a phrase", -word, OR, site:host, lang:xx, after:2024-03, before:2025 (the /about page of gleaner
serve lists them). The words of QUERY may be given as one argument or several.

Options:
  --data DIR     the data dir whose index to search (default: data)
  --page N       which page of results (default: 1)
  --size N       results per page, 1-${WEB_DEFAULTS.maxPageSize} (default: ${WEB_DEFAULTS.pageSize})
  --sort ORDER   relevance, or date: newest first, pages without a date last (default: relevance)
  --explain      why each result ranks where it does: its score and the parts it is made of
  --literal      search the query as typed, even when a spelling correction would find pages
  --synonyms FILE
                 the site's synonyms, as gleaner serve --synonyms reads them
  --promoted FILE
                 the pages the site recommends for queries, as gleaner serve --promoted reads them:
                 listed before the results, under "Recommended:"
  --json         the answer as /api/search gives it (with --explain, each result's explanation)
  -h, --help     this help
`;

const FLAGS = {
  data: { type: 'string' },
  page: { type: 'string' },
  size: { type: 'string' },
  sort: { type: 'string' },
  explain: { type: 'boolean' },
  literal: { type: 'boolean' },
  synonyms: { type: 'string' },
  promoted: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface SearchCommandIo {
  out: { write(s: string): unknown; isTTY?: boolean };
}

/** How marked words are shown: bold on a terminal (unless NO_COLOR is set, no-color.org), plain elsewhere. */
export interface MarkStyle {
  open: string;
  close: string;
}
const BOLD: MarkStyle = { open: '\x1b[1m', close: '\x1b[22m' };
const PLAIN: MarkStyle = { open: '', close: '' };

/** The flags a search was asked with that the next page's command must repeat (all but --page and
 * --sort, which the "More:" line sets itself), as shell words. */
function repeatedFlags(v: { data?: string; size?: string; explain?: boolean; literal?: boolean; synonyms?: string; promoted?: string }): string {
  const words: string[] = [];
  if (v.size !== undefined) words.push('--size', shellWord(v.size));
  if (v.explain === true) words.push('--explain');
  if (v.literal === true) words.push('--literal');
  if (v.synonyms !== undefined) words.push('--synonyms', shellWord(v.synonyms));
  if (v.promoted !== undefined) words.push('--promoted', shellWord(v.promoted));
  if (v.data !== undefined) words.push('--data', shellWord(v.data));
  return words.join(' ');
}

/** One page of results as text: a count line, the query as read, then each result. Pure. `again`: the
 * flags the next page's command repeats (repeatedFlags). */
export function formatSearchRun(run: SearchRun, style: MarkStyle, explain: boolean, again = ''): string {
  const { query, result } = run;
  const lines: string[] = [];
  if (run.corrected) lines.push(`Showing results for ${query.understood}; search instead for ${run.corrected.literal}: add --literal`);
  else if (query.understood !== '' && query.understood !== run.input.trim()) lines.push(`Showing results for ${query.understood}`);
  for (const note of query.ignored) lines.push(`Ignored: ${note}`);
  if (run.needsWord) {
    lines.push('Nothing to search for: the query has no word to look for, only exclusions or filters. Add a word.');
    return lines.join('\n') + '\n';
  }
  if (result.didYouMean) lines.push(`Did you mean: ${result.didYouMean.query}`);
  const total = result.total;
  const pages = run.pages > 1 ? `, page ${run.page} of ${formatCount(run.pages)}` : '';
  lines.push(`${result.totalIsEstimate ? 'About ' : ''}${formatCount(total)} result${total === 1 ? '' : 's'}${pages} (${formatSeconds(run.elapsedMs)} seconds)`);
  if (result.phraseCheckStopped) {
    const { checked, candidates } = result.phraseCheckStopped;
    lines.push(`The phrase was looked for in the best ${formatCount(checked)} of the ${formatCount(candidates)} pages holding all its words; others may hold it too.`);
  }
  const views = result.hits.map((hit, i) => resultView(hit, (run.page - 1) * run.size + i + 1));
  const width = String(views[views.length - 1]?.rank ?? 1).length;
  if (run.promoted) {
    lines.push('', 'Recommended:');
    for (const hit of run.promoted) lines.push(...resultLines(promotedView(hit), width, style, false, '*'));
  }
  if (views.some((v) => v.missing.length > 0)) {
    lines.push(total === 0 ? 'No page has every word of the query; these pages have some of them.' : 'Few pages have every word of the query; pages with some of the words come after them.');
  }
  for (const v of views) lines.push('', ...resultLines(v, width, style, explain));
  if (run.page < run.pages) lines.push('', `More: gleaner search ${shellQuoted(run.input)}${run.sort === 'relevance' ? '' : ` --sort ${run.sort}`} --page ${run.page + 1}${again === '' ? '' : ` ${again}`}`);
  return lines.join('\n') + '\n';
}

/** Whitespace runs, line breaks included, as one space: a result's lines are the formatter's. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

/** A result's lines: its rank (or `mark`, for a promoted page) and heading, URL, snippet and more. */
function resultLines(v: ResultView, width: number, style: MarkStyle, explain: boolean, mark = `${v.rank}.`): string[] {
  const indent = ' '.repeat(width + 2);
  const heading = [v.context, v.title, v.section]
    .filter((s): s is string => s !== undefined && s !== '')
    .map((s) => terminalSafe(oneLine(s)))
    .join(' › ');
  // Each part made safe on its own, so the marks stay where the highlights are; a line break inside
  // the snippet (a page's description before its text) a space, as the page shows it.
  const snippet = v.snippet
    .map((s) => {
      const text = terminalSafe(oneLine(s.text));
      return s.mark ? `${style.open}${text}${style.close}` : text;
    })
    .join('');
  const out = [`${mark.padStart(width + 1)} ${heading}`, `${indent}${terminalSafe(v.href ?? v.url)}${v.date ? `  ${v.date.day}` : ''}`];
  if (snippet.trim() !== '') out.push(`${indent}${snippet}`);
  if (v.missing.length > 0) out.push(`${indent}Missing: ${v.missing.map(terminalSafe).join(', ')}`);
  if (explain && v.explain) {
    const e = v.explain;
    const factors: [string, number][] = [
      ['hub', e.hubFactor],
      ['listing', e.listingFactor],
      ['language', e.languageFactor],
      ['words near', e.proximityFactor],
      ['name in title', e.nameTitleFactor],
      ['opening', e.openingFactor],
    ];
    const shown = factors.filter(([, f]) => f !== 1).map(([name, f]) => ` × ${name} ${f.toPrecision(3)}`);
    out.push(`${indent}score ${e.score.toPrecision(4)} = text ${e.textScore.toPrecision(4)} × links ${e.linkBoost.toPrecision(4)} (${e.inboundLinks} inbound)${shown.join('')}`);
    out.push(`${indent}text: ${e.terms.map((t) => `${terminalSafe(t.token)} in ${t.field} ×${t.tf} ${t.contribution.toPrecision(3)}`).join(', ')}`);
  }
  return out;
}

export function createSearchCommand(io: SearchCommandIo, env: NodeJS.ProcessEnv = process.env): Command {
  return {
    name: 'search',
    summary: 'search the index from the shell, as the search page does',
    help: HELP,
    async run(argv: string[]): Promise<number> {
      const { values: v, positionals, help } = parseCommandArgs('search', argv, FLAGS);
      if (help) {
        io.out.write(HELP);
        return 0;
      }
      const typed = positionals.join(' ');
      if (typed.trim() === '') throw new GleanerError('BAD_ARGUMENT', 'search: give a query, e.g. gleaner search robots crawl-delay');
      const page = integerFlag('search', 'page', v.page, 1, 1, WEB_DEFAULTS.maxPage);
      const size = integerFlag('search', 'size', v.size, WEB_DEFAULTS.pageSize, 1, WEB_DEFAULTS.maxPageSize);
      const explain = v.explain === true;
      const sort = SORT_ORDERS.find((order) => order === (v.sort ?? 'relevance').toLowerCase());
      if (sort === undefined) throw new GleanerError('BAD_ARGUMENT', `search: --sort must be ${SORT_ORDERS.join(' or ')}, not ${terminalSafe(v.sort ?? '')}`);
      const synonyms = v.synonyms === undefined ? undefined : readSynonymsFile('search', v.synonyms);
      const promoted = v.promoted === undefined ? undefined : readPromotedFile('search', v.promoted);
      const dataDir = v.data ?? 'data';
      // A file, or the index folder of a data dir, named as the data dir: said as serve says it.
      checkDataDir(dataDir, { create: false, write: false });
      // One query: nothing to read ahead for the queries after it.
      const engine = await openSearchEngine(dataDir, { preloadMiB: 0 });
      try {
        let run: SearchRun;
        try {
          const options = { ...WEB_DEFAULTS, ...(synonyms ? { synonyms } : {}), ...(promoted ? { promoted } : {}) };
          run = runSearch(engine, typed, page, size, options, undefined, { literal: v.literal === true, explain, sort });
        } catch (e) {
          // A page past the last: the gateway's 404, here one line.
          if (e instanceof HttpError) throw new GleanerError('BAD_ARGUMENT', `search: ${e.message}`);
          throw e;
        }
        if (v.json) io.out.write(JSON.stringify(apiAnswer(run, explain)) + '\n');
        else io.out.write(formatSearchRun(run, io.out.isTTY === true && env.NO_COLOR === undefined ? BOLD : PLAIN, explain, repeatedFlags(v)));
      } finally {
        engine.close();
      }
      return 0;
    },
  };
}

export const searchCommand: Command = createSearchCommand({ out: process.stdout });
