// The JSON answer of a search, as `/api/search` sends it and `gleaner search --json` prints it: one
// shape for programs, whichever door they come in by (web/openapi.ts describes it).

import type { SearchRun } from './run-search.js';
import type { Explanation } from './search/index.js';
import { textDirection } from './text-direction.js';

/** The JSON of one search run; each hit's explanation only when `explain` (as Elasticsearch's
 * `explain` and Solr's `debugQuery`: explanations were 60% of an answer's bytes). */
export function apiAnswer(run: SearchRun, explain: boolean): Record<string, unknown> {
  return {
    query: run.input,
    understood: run.query.understood,
    ignored: run.query.ignored,
    total: run.result.total,
    ...(run.result.totalIsEstimate ? { totalIsEstimate: true } : {}),
    ...(run.result.phraseCheckStopped ? { phraseCheckStopped: run.result.phraseCheckStopped } : {}),
    sort: run.sort,
    page: run.page,
    size: run.size,
    pages: run.pages,
    tookMs: Math.round(run.elapsedMs * 1000) / 1000,
    ...(run.result.didYouMean && !run.corrected ? { didYouMean: run.result.didYouMean.query } : {}),
    // The typed query matched nothing: these are the results of its correction, `understood`.
    ...(run.corrected ? { correctedFrom: run.corrected.literal } : {}),
    // Asked as you type (complete=1): the typed query matched nothing, and these are the results of
    // it with its last word completed, `understood`.
    ...(run.completed ? { completedFrom: run.completed.typed } : {}),
    // Listed by the site for this query (serve --promoted): linked as listed, not to a section.
    ...(run.promoted
      ? {
          promoted: run.promoted.map((hit) => ({
            url: hit.url,
            title: hit.title,
            snippet: hit.snippet,
            highlights: hit.highlights,
            language: hit.language,
            direction: textDirection(hit.language),
            ...(hit.date !== undefined ? { date: hit.date } : {}),
          })),
        }
      : {}),
    results: run.result.hits.map((hit) => ({
      url: hit.url,
      ...(hit.section ? { section: hit.section } : {}),
      ...(hit.context !== undefined ? { context: hit.context } : {}),
      title: hit.title,
      snippet: hit.snippet,
      highlights: hit.highlights,
      language: hit.language,
      direction: textDirection(hit.language),
      ...(hit.date !== undefined ? { date: hit.date } : {}),
      score: sixDigits(hit.score),
      ...(explain && hit.explain ? { explain: roundedExplanation(hit.explain) } : {}),
      // A partial match: the query's words it lacks (full matches have none and come first).
      ...(hit.missing ? { missing: hit.missing } : {}),
    })),
  };
}

/** Six significant digits: what a reader of the figures can use, and a third of an answer's bytes
 * fewer than seventeen (an answer with explanations was 11-14 KB, and writing it was a quarter of
 * serving it). Rounding keeps the order of scores. */
const sixDigits = (x: number): number => (Number.isFinite(x) ? Number(x.toPrecision(6)) : x);

function roundedExplanation(e: Explanation): Explanation {
  const out = { ...e, terms: e.terms.map((t) => ({ ...t, contribution: sixDigits(t.contribution) })) };
  for (const key of ['textScore', 'linkBoost', 'hubShare', 'hubFactor', 'listingShare', 'listingFactor', 'languageFactor', 'proximityFactor', 'nameTitleFactor', 'openingFactor', 'score', 'linkWeight', 'contentLinkWeight', 'templateLinkWeight'] as const) {
    const v = out[key];
    if (v !== undefined) out[key] = sixDigits(v);
  }
  return out;
}
