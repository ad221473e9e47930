// One URL's journey through Gleaner, the steps the gateway can see (shared/trace.ts says what a step
// is): the page in the index (web/search/trace-index.ts, from the engine) and how it ranked for a
// query. `gleaner trace` (bin/commands/trace.ts) adds the crawl-side steps before these.

import type { TraceStep } from '../shared/trace.js';
import type { SearchEngine, SearchHit } from './search/index.js';
import type { ParsedQuery } from './query/index.js';

/** How the page ranked for a query, with the score's parts. */
export function queryStep(engine: SearchEngine, parsed: ParsedQuery, text: string, url: string, depth = 100): TraceStep {
  const result = engine.search(parsed, { offset: 0, limit: depth, explain: true });
  const rank = result.hits.findIndex((h) => h.url === url);
  const hit: SearchHit | undefined = result.hits[rank];
  const base: TraceStep = { title: `The query "${text}"`, decidedBy: ['web/query/parse.ts', 'web/search/compile.ts', 'web/search/rank.ts'], verdict: '', facts: [['results', String(result.total)], ...(parsed.understood !== text.trim() ? [['searched as', parsed.understood] as [string, string]] : [])] };
  if (!hit?.explain) return { ...base, verdict: `not in the first ${depth} results`, note: 'The page lacks a required word, or others outscore it: the tokens step shows which words it has.' };
  const e = hit.explain;
  return {
    ...base,
    // A partial match follows the pages with every word (partial.ts), so its place is past the total.
    verdict:
      hit.missing !== undefined && hit.missing.length > 0
        ? `a partial match lacking ${hit.missing.join(', ')}: listed ${rank + 1}, after the ${result.total} results with every word, score ${e.score.toFixed(3)}`
        : `ranked ${rank + 1} of ${result.total}, score ${e.score.toFixed(3)}`,
    facts: [
      ...base.facts,
      ['text score (BM25F)', e.textScore.toFixed(3)],
      ...e.terms.map((t): [string, string] => [`  ${t.token} in ${t.field}`, `tf ${t.tf}, adds ${t.contribution.toFixed(3)}`]),
      ['link boost', `×${e.linkBoost.toFixed(3)} (${e.inboundLinks} linking pages)`],
      ['hub factor', `×${e.hubFactor.toFixed(3)}`],
      ['listing factor', `×${e.listingFactor.toFixed(3)}`],
      ['language factor', `×${e.languageFactor.toFixed(3)}${e.languageFactor < 1 ? ` (the page is not in its site's main language, ${e.siteLanguage})` : ''}`],
      ['proximity factor', `×${e.proximityFactor.toFixed(3)}${e.queryPairs !== undefined ? ` (${e.nearPairs ?? 0} of ${e.queryPairs} word pairs near)` : ''}`],
      ['names-in-title factor', `×${e.nameTitleFactor.toFixed(3)}${e.nameTitleFactor < 1 ? " (the title has the query's words only inside code names)" : ''}`],
      ['opening factor', `×${e.openingFactor.toFixed(3)}${e.queryWords !== undefined ? ` (${e.openingWords ?? 0} of ${e.queryWords} query words in the page's opening)` : ''}`],
      ['score', `${e.textScore.toFixed(3)} × ${e.linkBoost.toFixed(3)} × ${e.hubFactor.toFixed(3)} × ${e.listingFactor.toFixed(3)} × ${e.languageFactor.toFixed(3)} × ${e.proximityFactor.toFixed(3)} × ${e.nameTitleFactor.toFixed(3)} × ${e.openingFactor.toFixed(3)} = ${e.score.toFixed(3)}`],
      ['snippet', hit.snippet],
      ...(hit.section ? [['links to', hit.section.url] as [string, string]] : []),
    ],
  };
}

