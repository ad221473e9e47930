// Phrase verification and the total it implies. The masks (posting-loop.ts) say a document has every
// word of a phrase; only the words' positions (phrase-positions.ts) say they are in a row, or for
// Chinese and Japanese phrases, which the segmenter may cut differently in a sentence, the page's text
// (phrase.ts). Candidates are checked best first until the page of results asked for is settled (no
// unchecked candidate could enter it) and one match past it is known, and how many pass in all is
// estimated from an evenly spread sample of the candidates, the same for every page.

import type { StoredDoc } from '../../shared/index-format/index.js';
import { isCjk } from '../../shared/analysis/index.js';
import type { AtomPlan, QueryPlan } from './compile.js';
import { atomMatches, compiledAtom } from './match-rules.js';
import { containsPhrase } from './phrase.js';
import type { PositionReader } from './phrase-positions.js';
import { bestFirst, ranksBefore, topDocuments } from './top-k.js';

export interface PhraseCheckOptions {
  /** SearcherOptions.maxPhraseChecks and phraseSampleSize. */
  maxPhraseChecks: number;
  phraseSampleSize: number;
}

/** The checks stopped at maxPhraseChecks before the page of results was settled: candidates past
 * those checked may match and rank on it. */
export interface PhraseCheckStop {
  /** Candidates checked best first. */
  checked: number;
  /** Candidates in all: documents with every word of the query. */
  candidates: number;
}

/** Whether document `d`, whose mask words start at masks[d * maskWords], matches the plan once its phrases are checked. */
export function phrasePasses(plan: QueryPlan, masks: Uint32Array, positions: PositionReader, read: (doc: number) => StoredDoc): (doc: number) => boolean {
  const W = plan.maskWords;
  // Everything a check reads of the plan, worked out once per query, not once per candidate: a rare
  // phrase of common words checks thousands ("mask pub const": 2,000 checks, and compiling the atoms'
  // bit masks for each was a fifth of the query).
  const prepare = (atom: AtomPlan) => ({
    atom,
    bits: compiledAtom(atom, W),
    alternatives: atom.phrase
      ? atom.alternatives.map((alt) => {
          const byText = alt.phraseTokens.some(isCjk);
          return { alt, byText, terms: byText ? undefined : positions.terms(alt.phraseTokens) };
        })
      : [],
  });
  const groups = plan.groups.map((g) => g.map(prepare));
  const excluded = plan.excluded.map(prepare);
  type Prepared = ReturnType<typeof prepare>;
  const holds = (d: number, p: Prepared): boolean => {
    if (!atomMatches(masks, d * W, p.bits)) return false;
    if (!p.atom.phrase) return true;
    for (const { alt, byText, terms } of p.alternatives) {
      if (byText ? containsPhrase(read(d), alt.phraseTokens, p.atom.atom.field, p.atom.atom.text) : positions.inRow(d, terms, p.atom.atom.field)) return true;
    }
    return false;
  };
  return (d) => {
    for (const group of groups) if (!group.some((p) => holds(d, p))) return false;
    for (const p of excluded) if (holds(d, p)) return false;
    return true;
  };
}

/**
 * The best `wanted` of `sure` (matches without a phrase to check) and of the `unsure` that pass, by
 * `score`, and how many documents match in all: exact when every candidate was checked, else estimated.
 *
 * The estimate is the same whichever page is asked for, so the totals a reader sees and the page links
 * they follow agree from page to page: the share of `unsure` that passes is measured on an evenly spread
 * sample of all of it (a document already checked counts as what it was), and the total kept between
 * what is known (the matches found; `unsure` less the failures found). And when the page asked for is
 * full, checking goes on to one match past it, so a next page is never hidden by a sample that happened
 * to find no match (the best candidates pass more often than the rest). When the checks stop at
 * maxPhraseChecks before the page is settled, `stopped` says so: the page may lack matches unchecked.
 * A total above what the checks can reach (`sure` and the matches among the best maxPhraseChecks of
 * `unsure`: known once the cap is met, else at most one a check) comes with `reachable`, so that no
 * page link promises what no page can show. A page that checks every candidate knows the exact total,
 * which may differ from the estimate the pages before it showed.
 */
export function settlePhrases(
  sure: ArrayLike<number>,
  unsure: ArrayLike<number>,
  score: ArrayLike<number>,
  wanted: number,
  passes: (doc: number) => boolean,
  options: PhraseCheckOptions,
): { docs: number[]; total: number; estimated: boolean; reachable?: number; stopped?: PhraseCheckStop } {
  const sureTop = topDocuments(sure, score, wanted);
  const passedDocs: number[] = [];
  const verdicts = new Map<number, boolean>();
  let passed = 0;
  const check = (d: number): boolean => {
    let verdict = verdicts.get(d);
    if (verdict === undefined) {
      verdict = passes(d);
      verdicts.set(d, verdict);
      if (verdict) passed++;
    }
    return verdict;
  };
  // The last document on the full page so far. A candidate enters only if it ranks before it, ties
  // by document number as everywhere: by score alone, the copies of a page that tie with the page's
  // last (47 copies of each page at a million replicated pages) were all checked, 2,000 checks a query.
  let last = sureTop.length >= wanted ? sureTop[wanted - 1]! : -1;
  let stopped = false;
  // One more than the checks allowed: the one that finds the cap reached.
  for (const d of bestFirst(unsure, score, options.maxPhraseChecks + 1)) {
    // Settled: the page is full and no candidate left can enter it; then one match more is enough.
    const enters = last < 0 || ranksBefore(d, last, score);
    if (!enters && sure.length + passed > wanted) break;
    if (verdicts.size >= options.maxPhraseChecks) {
      stopped = true;
      break;
    }
    if (!check(d) || !enters) continue;
    passedDocs.push(d);
    if (passedDocs.length + sureTop.length >= wanted) last = topDocuments([...sureTop, ...passedDocs], score, wanted)[wanted - 1]!;
  }
  const docs = topDocuments([...sureTop, ...passedDocs], score, wanted);
  if (verdicts.size === unsure.length) return { docs, total: sure.length + passed, estimated: false };
  // Past the candidates the checks may reach, no page can show a match, whatever the estimate says:
  // every page checks the same candidates best first, up to the same cap. Once it is reached, the
  // matches among them are known; before, each check may find one.
  const reachable = sure.length + (stopped ? passed : Math.min(unsure.length, options.maxPhraseChecks));
  // Counted before the sample's checks: what the page of results rests on.
  const stop = stopped ? { stopped: { checked: verdicts.size, candidates: unsure.length } } : {};
  // The sample: evenly spread over all of `unsure`, so it is the same for every page.
  const size = Math.min(unsure.length, options.phraseSampleSize);
  let hits = 0;
  for (let i = 0; i < size; i++) if (check(unsure[Math.floor((i * unsure.length) / size)]!)) hits++;
  const lower = sure.length + passed;
  const upper = sure.length + unsure.length - (verdicts.size - passed);
  const estimate = sure.length + Math.round((unsure.length * hits) / size);
  const total = Math.min(upper, Math.max(lower, estimate));
  return { docs, total, estimated: verdicts.size < unsure.length, ...(reachable < total ? { reachable } : {}), ...stop };
}
