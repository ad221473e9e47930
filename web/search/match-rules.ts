// The match rules as the searcher checks them per document: each atom's alternatives as the bits they
// need in a document's mask (web/search/compile.ts assigns the bits), and the site:/lang: filter. Pure.

import { boundStartMs, type ParsedQuery } from '../query/index.js';
import type { AtomPlan, QueryPlan } from './compile.js';
import { CodedStrings, type TextColumn } from '../../shared/index-format/index.js';

export interface CompiledAtom {
  phrase: boolean;
  /** Per alternative, the bits it needs as maskWords words. */
  alternatives: Uint32Array[];
}

export function compiledAtom(atom: AtomPlan, words: number): CompiledAtom {
  return {
    phrase: atom.phrase,
    alternatives: atom.alternatives.map((alt) => {
      const need = new Uint32Array(words);
      for (const b of alt.bits) need[b >>> 5]! |= 1 << (b & 31);
      return need;
    }),
  };
}

/** Groups of atoms as flat arrays for the per-document check: every alternative's needed bits, whether
 * it is a phrase, and where each group's alternatives end. */
export function flatten(groups: CompiledAtom[][], words: number): { need: Uint32Array; phrase: Uint8Array; groupEnd: Int32Array } {
  const alts = groups.flatMap((g) => g.flatMap((a) => a.alternatives.map((need) => ({ need, phrase: a.phrase }))));
  const need = new Uint32Array(alts.length * words);
  const phrase = new Uint8Array(alts.length);
  alts.forEach((a, i) => {
    need.set(a.need, i * words);
    phrase[i] = a.phrase ? 1 : 0;
  });
  const groupEnd = new Int32Array(groups.length);
  let end = 0;
  groups.forEach((g, i) => {
    end += g.reduce((n, a) => n + a.alternatives.length, 0);
    groupEnd[i] = end;
  });
  return { need, phrase, groupEnd };
}

/**
 * Whether mask word `have` lacks a bit of `need`. Not `(have & need) !== need`: `&` gives a signed
 * 32-bit number and a Uint32Array word holding bit 31 reads as a positive one, so the word of a long
 * query that got bit 31 (or 63, ...) was never found, and a query of 32 words or more matched no page.
 */
function lacks(have: number, need: number): boolean {
  return (need & ~have) !== 0;
}

export function atomMatches(masks: Uint32Array, base: number, atom: CompiledAtom): boolean {
  outer: for (const need of atom.alternatives) {
    for (let w = 0; w < need.length; w++) if (lacks(masks[base + w]!, need[w]!)) continue outer;
    return true;
  }
  return false;
}

/** site:, -site:, lang:, after: and before: as one test per document, or undefined when the query has none. */
export function documentFilter(
  query: ParsedQuery,
  hosts: TextColumn,
  languages: TextColumn,
  /** Document d's `host:port` ('' for the port when its URL has none): doc-strings.bin's site column,
   * which `site:host:port` compares (the hosts column holds host names only). */
  sites: TextColumn,
  /** Document d's date in milliseconds (DocNumbers.date; NaN: none), which `after:` and `before:` compare. */
  dates: Float64Array,
): ((doc: number) => boolean) | undefined {
  const dateOk = dateFilter(query, dates);
  if (query.sites.length === 0 && query.excludedSites.length === 0 && query.languages.length === 0) return dateOk;
  const rest = placeFilter(query, hosts, languages, sites);
  return dateOk === undefined ? rest : (d) => dateOk(d) && rest(d);
}

/** `after:` and `before:` as a test of the date column: [after, before), a page without a date (NaN) never inside. */
function dateFilter(query: ParsedQuery, dates: Float64Array): ((doc: number) => boolean) | undefined {
  if (query.after === undefined && query.before === undefined) return undefined;
  const from = query.after === undefined ? -Infinity : boundStartMs(query.after);
  const to = query.before === undefined ? Infinity : boundStartMs(query.before);
  return (d) => {
    const at = dates[d]!;
    return at >= from && at < to;
  };
}

/** site:, -site: and lang: as one test (at least one of them is given). */
function placeFilter(query: ParsedQuery, hosts: TextColumn, languages: TextColumn, sites: TextColumn): (doc: number) => boolean {
  const siteOk = siteFilter(query.sites, query.excludedSites);
  const withPort = [...query.sites, ...query.excludedSites].some((s) => PORT.test(s));
  const hostOk = query.sites.length === 0 && query.excludedSites.length === 0 ? undefined : valueTest(withPort ? sites : hosts, siteOk);
  const langs = new Set(query.languages.map((l) => l.toLowerCase()));
  const langOk = langs.size === 0 ? undefined : valueTest(languages, (l) => langs.has(l));
  if (hostOk === undefined) return langOk ?? (() => true);
  if (langOk === undefined) return hostOk;
  return (d) => hostOk(d) && langOk(d);
}

/**
 * Whether document d's value in `column` passes `test`, each distinct value tested once. A coded
 * column (hosts, languages) keeps a byte per code and reads each document's code: at a million pages
 * an every-word `site:` query filters hundreds of thousands of documents, and reading each one's host
 * as a string and looking it up in a Map cost 17 ns a document, its code about 2.
 */
function valueTest(column: TextColumn, test: (value: string) => boolean): (doc: number) => boolean {
  if (column instanceof CodedStrings) {
    const ok = Uint8Array.from(column.values, (v) => (test(v) ? 1 : 0));
    const { codes } = column;
    return (d) => ok[codes[d]!] === 1;
  }
  const tested = new Map<string, boolean>();
  return (d) => {
    const value = column.at(d) ?? '';
    let ok = tested.get(value);
    if (ok === undefined) tested.set(value, (ok = test(value)));
    return ok;
  };
}

const PORT = /:\d+$/;

/** `site:` keeps a host equal to or under one of the sites; `-site:` removes them. A site with a port
 * matches that port only; `host` is `name:port` whenever a site has one. */
function siteFilter(sites: readonly string[], excluded: readonly string[]): (host: string) => boolean {
  const norm = (s: string) => s.toLowerCase().replace(/^\.+|\.+$/g, '');
  const under = (host: string, site: string) => {
    const name = PORT.test(site) ? host : host.replace(/:\d*$/, '');
    return name === site || name.endsWith('.' + site);
  };
  const inc = sites.map(norm);
  const exc = excluded.map(norm);
  return (host) => (inc.length === 0 || inc.some((s) => under(host, s))) && !exc.some((s) => under(host, s));
}

/** A document's verdict from its mask: no match, a match, or a match if its phrases are found in its text. */
export const NO_MATCH = 0;
export const MATCH = 1;
export const MATCH_IF_PHRASES = 2;
export type Verdict = typeof NO_MATCH | typeof MATCH | typeof MATCH_IF_PHRASES;

/**
 * The verdict per document for the plan's required groups and exclusions, reading the masks of the
 * query whose documents carry `stamp[d] === epoch` (a document no key touched has no bits).
 */
export function maskVerdict(plan: QueryPlan, masks: Uint32Array, stamp: Uint32Array, epoch: number): (doc: number) => Verdict {
  const W = plan.maskWords;
  const req = flatten(plan.groups.map((g) => g.map((a) => compiledAtom(a, W))), W);
  const exc = flatten(plan.excluded.map((a) => [compiledAtom(a, W)]), W);
  if (W === 1 && exc.phrase.length === 0 && req.phrase.every((p) => p === 0)) return wordsOnlyVerdict(req, masks, stamp, epoch);
  const matchesAlt = (base: number, need: Uint32Array, at: number): boolean => {
    for (let w = 0; w < W; w++) {
      const n = need[at + w]!;
      if (lacks(masks[base + w]!, n)) return false;
    }
    return true;
  };
  return (d) => {
    if (stamp[d] !== epoch) return req.groupEnd.length === 0 ? MATCH : NO_MATCH;
    const base = d * W;
    let needsText = false;
    let alt = 0;
    for (let g = 0; g < req.groupEnd.length; g++) {
      let found: Verdict = NO_MATCH;
      const end = req.groupEnd[g]!;
      for (; alt < end; alt++) {
        if (!matchesAlt(base, req.need, alt * W)) continue;
        found = req.phrase[alt] ? MATCH_IF_PHRASES : MATCH;
        if (found === MATCH) break;
      }
      if (found === NO_MATCH) return NO_MATCH;
      if (found === MATCH_IF_PHRASES) needsText = true;
      alt = end;
    }
    for (let a = 0; a < exc.phrase.length; a++) {
      if (!matchesAlt(base, exc.need, a * W)) continue;
      if (!exc.phrase[a]) return NO_MATCH;
      needsText = true;
    }
    return needsText ? MATCH_IF_PHRASES : MATCH;
  };
}

/**
 * maskVerdict for the common query: words only (no phrase, no exclusion) in one mask word, so each
 * document's verdict is one load and a few bit tests. An every-word query of common words checks every
 * page the rarest word is on (82,890 of 106,170 pages for "and target feature"), and the general
 * check, a closure over words and alternatives, was 42% of such a query; this one takes about a third
 * less of the whole query. Same answers: a document matches when every group has an alternative whose
 * bits it has all.
 */
function wordsOnlyVerdict(req: { need: Uint32Array; groupEnd: Int32Array }, masks: Uint32Array, stamp: Uint32Array, epoch: number): (doc: number) => Verdict {
  const { need, groupEnd } = req;
  const groups = groupEnd.length;
  return (d) => {
    if (stamp[d] !== epoch) return groups === 0 ? MATCH : NO_MATCH;
    const m = masks[d]!;
    let alt = 0;
    for (let g = 0; g < groups; g++) {
      const end = groupEnd[g]!;
      let found = false;
      for (; alt < end; alt++) {
        const n = need[alt]!;
        if (!lacks(m, n)) {
          found = true;
          break;
        }
      }
      if (!found) return NO_MATCH;
      alt = end;
    }
    return MATCH;
  };
}

