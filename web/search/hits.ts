// A ranked candidate made into what the user sees: the snippet, placed by the query words' positions
// and cut from the one passage of the stored text that holds them (snippet-positions.ts; a page whose
// words only its text can place is searched as before, snippet.ts and sections.ts), and the "why this
// result" explanation, recomputed for the one document from rank.ts's own formula (the hot loop's
// precomputed arithmetic gives the same figures).

import { FIELD_COUNT, FIELDS, isPhrasePairToken } from '../../shared/index-format/index.js';
import type { IndexGeneration } from '../../shared/index-format/index.js';
import type { Explanation, SearchHit } from './types.js';
import { definedNameOf, isDefinedNameToken, PAIR_SEPARATOR } from '../../shared/analysis/index.js';
import type { QueryPlan } from './compile.js';
import type { Precomputed } from './precompute.js';
import { hubFactor, idf, languageFactor, linkBoost, linkFiguresOf, listingFactor, termScore } from './rank.js';
import { bestSnippet, type Snippet, type SnippetOptions } from './snippet.js';
import { bestSection, sectionUrl, type ChosenSection } from './sections.js';
import { bodyPlaces, placedSnippet } from './snippet-positions.js';
import { findPosting } from './find-posting.js';
import type { StoredFields } from './stored-fields.js';

export interface Candidate {
  doc: number;
  score: number;
  textScore: number;
  /** Set when proximity reordered it (proximity.ts): `score` includes the factor. */
  proximity?: { pairs: number; near: number; factor: number };
  /** Set when the names-in-title rule looked at it (name-title.ts): `score` includes the factor. */
  titleNames?: number;
  /** Set when the opening rule looked at it (lead.ts): `score` includes the factor. */
  lead?: { words: number; opening: number; factor: number };
}

/**
 * The tokens a page's section and snippet are chosen by and highlighted with: the query's scored tokens
 * that apply to a page in `language` (all of them when none scores), words only: not word pairs
 * (shared/analysis/pairs.ts) nor defined names. A stem of another language's variant is no word of this
 * page: "fs" is "f" to the French stemmer, and on an English page every "F_OK" counted as a query
 * word, so the section mentioning `fs.readFile` beside `F_OK` beat the one headed `fs.readFile()`.
 */
export function snippetTokens(plan: Pick<QueryPlan, 'keys'>, language: string): Set<string> {
  const applies = plan.keys.filter((k) => k.language === undefined || k.language === language);
  const scored = applies.filter((k) => k.scored);
  const tokens = new Set<string>();
  for (const k of scored.length > 0 ? scored : applies) if (!k.token.includes(PAIR_SEPARATOR) && !isPhrasePairToken(k.token) && !isDefinedNameToken(k.token)) tokens.add(k.token);
  return tokens;
}

/**
 * The query's tokens a page's title holds. When it holds every one, the page is what the query asks
 * for, and the result links to it, not to a section that repeats the word ("npx" on the page titled
 * "npx" went to its section "Compatibility with Older npx Versions"); DocSearch ranks a match in a
 * page's title above one in its lower headings for the same reason. When it holds some, the result
 * shows the title above the section's heading, so those words are said for every part of the page:
 * a section need not hold them again to be the one the query names (sections.ts choosePart `given`).
 * `title`: the title's tokens (name-title.ts TitleWords.all, kept per page).
 */
export function titleTokens(title: ReadonlySet<string>, tokens: ReadonlySet<string>): ReadonlySet<string> {
  const held = new Set<string>();
  for (const t of tokens) if (title.has(t)) held.add(t);
  return held;
}

/** Of `tokens` (snippetTokens), those only another form of a query word (KeyPlan.variant): a title
 * naming the word names it, whether or not it holds the other form ("ANALYZE" for "analyze", whose
 * other spelling is "analyse"). */
export function variantTokens(plan: Pick<QueryPlan, 'keys'>, tokens: ReadonlySet<string>): ReadonlySet<string> {
  const out = new Set<string>();
  for (const k of plan.keys) if (k.variant && tokens.has(k.token)) out.add(k.token);
  return out;
}

/** Whether a title holding `inTitle` names every query word: each of `tokens` but the variants. */
function namesEvery(tokens: ReadonlySet<string>, inTitle: ReadonlySet<string>, variants: ReadonlySet<string>): boolean {
  let words = 0;
  for (const t of tokens) {
    if (variants.has(t)) continue;
    if (!inTitle.has(t)) return false;
    words++;
  }
  return words > 0;
}

export class HitBuilder {
  constructor(
    private readonly gen: IndexGeneration,
    private readonly pre: Precomputed,
    private readonly stored: StoredFields,
    private readonly snippetOptions: SnippetOptions,
    private readonly termId: (token: string) => number | undefined,
    /** A page's title tokens (name-title.ts TitleWords.all, kept per page): the title is not tokenized again per result. */
    private readonly titleTokensOf: (doc: number) => ReadonlySet<string>,
  ) {}

  hit(c: Candidate, plan: QueryPlan, explain = true): SearchHit {
    const { docs } = this.gen;
    const tokens = snippetTokens(plan, docs.language.at(c.doc)!);
    const inTitle = titleTokens(this.titleTokensOf(c.doc), tokens);
    const { section, snippet } = this.snippet(c.doc, tokens, inTitle, namesEvery(tokens, inTitle, variantTokens(plan, tokens)));
    const context = this.stored.context(c.doc);
    const date = docs.date[c.doc]!;
    return {
      url: docs.url.at(c.doc)!,
      ...(section ? { section: { id: section.id, heading: section.heading, url: sectionUrl(docs.url.at(c.doc)!, section.id) } } : {}),
      ...(context !== undefined ? { context } : {}),
      title: docs.title.at(c.doc)!,
      snippet: snippet.text,
      highlights: snippet.highlights,
      language: docs.language.at(c.doc)!,
      ...(Number.isNaN(date) ? {} : { date: new Date(date).toISOString() }),
      score: c.score,
      ...(explain ? { explain: this.explain(c, plan) } : {}),
    };
  }

  /** `inTitle`: the tokens the page's title holds (titleTokens); `wholePage`: it names every query word,
   * so the page itself answers: no section. */
  private snippet(doc: number, tokens: ReadonlySet<string>, inTitle: ReadonlySet<string>, wholePage: boolean): { section?: ChosenSection; snippet: Snippet } {
    const header = this.stored.header(doc);
    const places = bodyPlaces(this.gen, this.termId, doc, tokens, header.language);
    if (places !== undefined) return placedSnippet(this.gen, this.stored, doc, header, places, tokens, this.snippetOptions, undefined, inTitle, wholePage);
    const stored = this.stored.read(doc, this.snippetOptions.scanChars);
    const section = wholePage ? undefined : bestSection(stored, tokens, inTitle);
    return { ...(section ? { section } : {}), snippet: bestSnippet(section ? stored.body.slice(section.start, section.end) : stored.body, stored.language, tokens, this.snippetOptions) };
  }

  explain(c: Candidate, plan: QueryPlan): Explanation {
    const { docs, lists } = this.gen;
    const { rank, inverseNorm } = this.pre;
    const n = docs.url.length;
    const d = c.doc;
    const terms: Explanation['terms'] = [];
    for (const key of plan.keys) {
      if (!key.scored || (key.language !== undefined && key.language !== docs.language.at(d))) continue;
      const list = lists.list(key.term);
      const p = findPosting(list.docs, 0, list.docs.length, d);
      if (p < 0) continue;
      const docFreq = key.docFreq ?? list.docs.length;
      if (isDefinedNameToken(key.token)) {
        // Scored by presence (precompute.ts): the page defines the name.
        terms.push({ token: definedNameOf(key.token), field: 'defines', tf: 1, contribution: key.weight * idf(n, docFreq) });
        continue;
      }
      const tfs = new Uint8Array(FIELD_COUNT);
      list.frequencies(p, tfs);
      const { byField } = termScore(rank, key.weight * idf(n, docFreq), tfs, inverseNorm, 0, d * FIELD_COUNT);
      for (let f = 0; f < FIELD_COUNT; f++) {
        const tf = tfs[f]!;
        if (tf > 0) terms.push({ token: key.token, field: FIELDS[f]!, tf, contribution: byField[f]! });
      }
    }
    const links = linkFiguresOf(docs, d);
    const hubShare = docs.hub[d]!;
    const listingShare = docs.listing[d]!;
    return {
      textScore: c.textScore,
      terms,
      inboundLinks: links.inbound,
      // Only the weights the boost used: with content links known, linkWeight ranks nothing.
      ...(links.contentInbound !== undefined
        ? { contentLinks: links.contentInbound, contentLinkWeight: rank.contentLinkWeight, templateLinkWeight: rank.templateLinkWeight }
        : { linkWeight: rank.linkWeight }),
      linkBoost: linkBoost(rank, links),
      hubShare,
      hubFactor: hubFactor(rank, hubShare),
      listingShare,
      listingFactor: listingFactor(rank, listingShare, this.pre.listingSite[d] === 1),
      siteLanguage: this.pre.mainLanguage[d]!,
      languageFactor: languageFactor(rank, docs.language.at(d)!, this.pre.mainLanguage[d]!),
      ...(c.proximity !== undefined ? { queryPairs: c.proximity.pairs, nearPairs: c.proximity.near } : {}),
      proximityFactor: c.proximity?.factor ?? 1,
      nameTitleFactor: c.titleNames ?? 1,
      ...(c.lead !== undefined ? { queryWords: c.lead.words, openingWords: c.lead.opening } : {}),
      openingFactor: c.lead?.factor ?? 1,
      score: c.score,
    };
  }
}
