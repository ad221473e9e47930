// Phrase verification and the total it implies. The masks (posting-loop.ts) say a document has every
// word of a phrase; only the words' positions (phrase-positions.ts) say they are in a row, or for
// Chinese and Japanese phrases, which the segmenter may cut differently in a sentence, the page's text
// (phrase.ts). Candidates are checked best first until the page of results asked for is settled (no
// unchecked candidate could enter it), and how many of the rest pass is estimated from an evenly
// spread sample of them (the best ones pass more often than the rest).

import type { StoredDoc } from '../../shared/index-format/index.js';
import { isCjk } from '../../shared/analysis/index.js';
import type { AtomPlan, QueryPlan } from './compile.js';
import { atomMatches, compiledAtom } from './match-rules.js';
import { containsPhrase } from './phrase.js';
import type { PositionReader } from './phrase-positions.js';
import { bestFirst, topDocuments } from './top-k.js';

export interface PhraseCheckOptions {
  /** SearcherOptions.maxPhraseChecks and phraseSampleSize. */
  maxPhraseChecks: number;
  phraseSampleSize: number;
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
 * `score`, and how many documents match in all (exact for the checked, estimated for the rest).
 */
export function settlePhrases(
  sure: ArrayLike<number>,
  unsure: ArrayLike<number>,
  score: ArrayLike<number>,
  wanted: number,
  passes: (doc: number) => boolean,
  options: PhraseCheckOptions,
): { docs: number[]; total: number; estimated: boolean } {
  const sureTop = topDocuments(sure, score, wanted);
  const passedDocs: number[] = [];
  const checked = new Set<number>();
  for (const d of bestFirst(unsure, score)) {
    if (checked.size >= options.maxPhraseChecks) break;
    if (passedDocs.length + sureTop.length >= wanted) {
      const floor = topDocuments([...sureTop, ...passedDocs], score, wanted)[wanted - 1]!;
      if (score[d]! < score[floor]!) break;
    }
    checked.add(d);
    if (passes(d)) passedDocs.push(d);
  }
  // The unchecked are sampled where they stand in `unsure`, not copied out of it: with common words
  // it holds tens of thousands of documents and the checked a few.
  const rest = unsure.length - checked.size;
  let estimate = 0;
  if (rest > 0) {
    const size = Math.min(rest, options.phraseSampleSize);
    let sampled = 0;
    let taken = 0; // at least one: the first step walks `unsure` until it meets an unchecked document
    for (let i = 0, at = 0; i < size; i++) {
      at = Math.max(at, Math.floor((i * unsure.length) / size));
      while (at < unsure.length && checked.has(unsure[at]!)) at++;
      if (at === unsure.length) break;
      taken++;
      if (passes(unsure[at++]!)) sampled++;
    }
    estimate = Math.round((rest * sampled) / taken);
  }
  return { docs: topDocuments([...sureTop, ...passedDocs], score, wanted), total: sure.length + passedDocs.length + estimate, estimated: rest > 0 };
}
