// Synonyms a site owner lists (`gleaner serve --synonyms FILE`), in the synonyms.txt format of Solr and
// Elasticsearch, applied to a parsed query as OR alternatives: "k8s deploy" with `k8s, kubernetes` is
// searched as `k8s OR kubernetes deploy`, and the result page says so ("Showing results for ..."). An
// intranet's own words (a product's code name, an abbreviation, a team's jargon) are what no stemmer or
// spelling correction can know. Applied at query time, as Elasticsearch advises for synonyms: a change
// to the file needs a restart of serve, not a new index. Pure: the caller reads the file.
//
// The file, line by line (a line starting with `#` is a comment, blank lines are skipped):
//   k8s, kubernetes, kube         equivalent: a query word that is any of them also finds the others
//   hdd, hard drive               an entry of several words is a phrase ("hard drive" as one)
//   colour => color               explicit: the words on the left are searched as those on the right
// A query's words meet an entry by their index tokens, accents folded (so `Kubernetes` meets it, a plural
// meets a singular and "cafe" meets "café", as search does), the longest entry first, one after another in the order
// typed; an entry of several words meets them only typed side by side as plain words. A quoted phrase
// is searched as typed: no synonym replaces it. Exclusions (`-k8s`) exclude the synonyms too.

import { GleanerError } from '../../shared/errors.js';
import { formatQuery } from './parse.js';
import { entryWords, wordKey } from './site-words.js';
import type { ParsedQuery, QueryAtom, SynonymRule as Rule, SynonymRules, SynonymOptions } from './types.js';

/** maxEntryChars is WEB_DEFAULTS.maxQueryChars (web/defaults.ts, which cannot be imported here: it names
 * these types), and a test holds them equal. */
export const DEFAULT_SYNONYM_OPTIONS: Readonly<SynonymOptions> = { maxAlternatives: 16, maxEntriesPerLine: 100, maxEntryChars: 512 };
export type { SynonymOptions, SynonymRules };

const keyOf = wordKey;
const sameAtom = (a: QueryAtom, b: QueryAtom): boolean => a.kind === b.kind && keyOf(a) === keyOf(b);

/** The atom an entry is searched as: its word, or its words as a phrase. */
function searchedAs(atoms: QueryAtom[]): QueryAtom {
  if (atoms.length === 1) return atoms[0]!;
  return { kind: 'phrase', text: atoms.map((a) => a.text).join(' '), tokens: atoms.flatMap((a) => a.tokens) };
}

/**
 * The rules of a synonyms file's text. Throws a GleanerError (BAD_ARGUMENT) naming `source` and the line
 * of the first mistake: a synonyms file that says something else than its owner meant should stop
 * `serve` at start, not quietly search other words.
 */
export function parseSynonyms(text: string, source: string, options: Readonly<SynonymOptions> = DEFAULT_SYNONYM_OPTIONS): SynonymRules {
  const rules = new Map<string, Rule>();
  let lines = 0;
  const fail = (line: number, why: string): never => {
    throw new GleanerError('BAD_ARGUMENT', `${source} line ${line}: ${why}`);
  };
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n|\r/)
    .forEach((raw, i) => {
      // As in Solr's format, a comment is a line that starts with "#": "c#, csharp" is an entry.
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const sides = line.split('=>');
      if (sides.length > 2) fail(i + 1, 'more than one "=>"');
      const lists = sides.map((side) => side.split(',').map((e) => e.trim()));
      const entries = lists.flat();
      if (entries.length > options.maxEntriesPerLine) fail(i + 1, `${entries.length} entries, more than the ${options.maxEntriesPerLine} a line may list`);
      const parsed = lists.map((list) =>
        list.map((entry) => {
          const atoms = entryWords(entry, options.maxEntryChars);
          return typeof atoms === 'string' ? fail(i + 1, atoms) : { atoms, as: searchedAs(atoms) };
        }),
      );
      const [left, right] = [parsed[0]!, parsed[1]];
      if (right === undefined && left.length < 2) fail(i + 1, 'one entry alone: list two or more, separated by commas, or write "words => other words"');
      for (const from of left) {
        const words = from.atoms.map(keyOf);
        const id = words.join('\u0000');
        const rule = rules.get(id) ?? { words, replace: false, alternatives: [] };
        rules.set(id, rule);
        // Equivalent: the others; explicit: the right side, the typed words kept only if listed there.
        const to = right === undefined ? left.filter((e) => e !== from) : right;
        if (right !== undefined) rule.replace = true;
        for (const { as } of to) if (!rule.alternatives.some((a) => sameAtom(a, as))) rule.alternatives.push(as);
      }
      lines++;
    });
  const byFirst = new Map<string, Rule[]>();
  for (const rule of rules.values()) byFirst.set(rule.words[0]!, [...(byFirst.get(rule.words[0]!) ?? []), rule]);
  for (const list of byFirst.values()) list.sort((a, b) => b.words.length - a.words.length);
  return { byFirst, options, lines };
}

/** A plain word typed alone in its group: what an entry of several words may start or continue. */
const plainWord = (group: readonly QueryAtom[]): boolean => group.length === 1 && group[0]!.kind === 'term' && group[0]!.field === undefined;

/**
 * `query` with its synonyms as OR alternatives (`understood` rewritten to say them), or `query` itself
 * when no word has any. Pure.
 */
export function applySynonyms(query: ParsedQuery, rules: SynonymRules): ParsedQuery {
  if (rules.byFirst.size === 0) return query;
  const notes: string[] = [];
  // An object, not a boolean: the closure below sets it.
  const expanded = { any: false };
  /** The group for `typed` (the atoms an entry met) with `rule`'s alternatives, capped. */
  const expand = (typed: QueryAtom, rule: Rule): QueryAtom[] => {
    expanded.any = true;
    const out: QueryAtom[] = rule.replace ? [] : [typed];
    const field = typed.field;
    for (const alt of rule.alternatives) {
      const atom = field === undefined ? alt : { ...alt, field };
      if (out.some((a) => sameAtom(a, atom))) continue;
      if (out.length - (rule.replace ? 0 : 1) >= rules.options.maxAlternatives) {
        notes.push(`synonyms of ${typed.text} past the first ${rules.options.maxAlternatives}`);
        break;
      }
      out.push(atom);
    }
    return out;
  };
  /** The rule of one word alone (an entry of one word), if any. */
  const single = (atom: QueryAtom): Rule | undefined => (atom.kind === 'term' ? rules.byFirst.get(keyOf(atom))?.find((r) => r.words.length === 1) : undefined);
  /** One word and its alternatives, as an entry of that word alone gives them. */
  const alone = (atom: QueryAtom): QueryAtom[] => {
    const rule = single(atom);
    return rule === undefined ? [atom] : expand(atom, rule);
  };

  const required: QueryAtom[][] = [];
  const groups = query.required;
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!;
    if (plainWord(group)) {
      // The longest entry that the words typed from here, side by side, spell.
      const candidates = rules.byFirst.get(keyOf(group[0]!)) ?? [];
      const rule = candidates.find((r) => r.words.every((w, k) => i + k < groups.length && plainWord(groups[i + k]!) && keyOf(groups[i + k]![0]!) === w));
      if (rule !== undefined) {
        const span = groups.slice(i, i + rule.words.length).map((g) => g[0]!);
        const typed = searchedAs(span);
        required.push(expand(typed, rule));
        i += rule.words.length - 1;
        continue;
      }
    }
    // In an OR group, or a word no longer entry starts with: each word alone.
    required.push(group.flatMap(alone));
  }
  const excluded = query.excluded.flatMap(alone);
  if (!expanded.any) return query;
  // An alternative a group already had (typed, or from another entry) once.
  const deduped = required.map((g) => g.filter((a, k) => g.findIndex((b) => sameAtom(a, b)) === k));
  const excludedOnce = excluded.filter((a, k) => excluded.findIndex((b) => sameAtom(a, b)) === k);
  const rewritten = { ...query, required: deduped, excluded: excludedOnce };
  return { ...rewritten, understood: formatQuery(rewritten), ignored: [...query.ignored, ...new Set(notes)] };
}
