// Proximity in the body (issue 14 item 6): of the best-scored results, a page that has the query's
// neighbouring words near each other somewhere in its text ("database size", "integer overflow",
// "iterate over dictionary") ranks above one that has them apart. Word pairs as index terms of the body
// lost on every set (shared/analysis/pairs.ts: a rare incidental pair in a long body outscored the page
// that names the topic); here the words' positions only reorder the top `poolSize` results, each by a
// bounded factor: 1 + weight x (share of the query's neighbouring word pairs that stand within
// `windowWords` of each other in the page's body). Pure: the positions come in through a function.
// DESIGN.md "Proximity in the body" has the figures that chose the defaults.

import type { QueryPlan } from './compile.js';
import { reorderPool } from './reorder-pool.js';

/** Defaults of ProximityOptions. */
export const DEFAULT_PROXIMITY_OPTIONS: Readonly<ProximityOptions> = { poolSize: 30, windowWords: 3, weight: 0.2 };

export interface ProximityOptions {
  /** Results, best first, that proximity may reorder; the rest keep their order after them. */
  poolSize: number;
  /** Two words stand near when at most this many word places apart (1: side by side). */
  windowWords: number;
  /** The factor's ceiling above 1, reached when every pair of neighbouring query words stands near. */
  weight: number;
}

/** A result as ranked: its score and, once proximity has looked at it, its factor. */
export interface Ranked {
  score: number;
  /** Of the query's neighbouring word pairs, how many stand near in the body, and the factor applied. */
  proximity?: { pairs: number; near: number; factor: number };
}

/**
 * The query's neighbouring word pairs as tokens: the last word of each required group and the first of
 * the next, in the order typed (each group's first alternative, its own analysis). One-word queries,
 * quoted phrases (their words are adjacent already) and OR groups of several atoms make none there.
 */
export function neighbourPairs(plan: Pick<QueryPlan, 'groups'>): [string, string][] {
  const words: (readonly string[] | undefined)[] = plan.groups.map((g) => (g.length === 1 && !g[0]!.quoted ? g[0]!.alternatives[0]?.tokens : undefined));
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const a = words[i];
    const b = words[i + 1];
    if (a === undefined || b === undefined || a.length === 0 || b.length === 0) continue;
    const first = a[a.length - 1]!;
    const second = b[0]!;
    if (first !== second && !pairs.some(([x, y]) => x === first && y === second)) pairs.push([first, second]);
  }
  return pairs;
}

/** A token's places in one page, ascending: the first `length` numbers of `list` (the engine reuses one
 * buffer a token for every page, so no array is made a page). */
export interface PlaceList {
  readonly list: ArrayLike<number>;
  readonly length: number;
}

/** Whether some place of `a` is within `window` places of some place of `b` (both ascending; only the
 * first `aLength` and `bLength` are read). */
export function standNear(a: ArrayLike<number>, b: ArrayLike<number>, window: number, aLength = a.length, bLength = b.length): boolean {
  let i = 0;
  let j = 0;
  while (i < aLength && j < bLength) {
    if (Math.abs(a[i]! - b[j]!) <= window) return true;
    if (a[i]! < b[j]!) i++;
    else j++;
  }
  return false;
}

/**
 * `ranked` (best first) with its first `poolSize` entries reordered by score x factor, each given its
 * proximity; `placesOf(entry, token)` gives a token's body places in that entry's page (undefined: none).
 * Ties keep their order; the entries after the pool keep theirs, and still rank below it (factors are
 * at least 1). Reorders `ranked` and its entries in place (reorder-pool.ts) and returns it.
 */
export function nearFirst<T extends Ranked>(
  ranked: T[],
  pairs: readonly [string, string][],
  placesOf: (entry: T, token: string) => PlaceList | undefined,
  options: ProximityOptions = DEFAULT_PROXIMITY_OPTIONS,
): T[] {
  if (pairs.length === 0 || options.weight === 0) return ranked;
  // Each token is asked once a page: the pairs as indexes into the distinct tokens, one slot each.
  const tokens = [...new Set(pairs.flat())];
  const pairAt = pairs.map(([a, b]) => [tokens.indexOf(a), tokens.indexOf(b)] as const);
  const places: (PlaceList | undefined | null)[] = new Array<null>(tokens.length).fill(null);
  return reorderPool(ranked, options.poolSize, (entry) => {
    places.fill(null); // null: not asked yet for this page
    const at = (t: number) => (places[t] === null ? (places[t] = placesOf(entry, tokens[t]!)) : places[t]);
    let near = 0;
    for (const [a, b] of pairAt) {
      const pa = at(a);
      const pb = pa === undefined ? undefined : at(b);
      if (pa !== undefined && pb !== undefined && standNear(pa.list, pb.list, options.windowWords, pa.length, pb.length)) near++;
    }
    const factor = 1 + (options.weight * near) / pairs.length;
    entry.score *= factor;
    entry.proximity = { pairs: pairs.length, near, factor };
  });
}
