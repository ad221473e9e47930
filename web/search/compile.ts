// A ParsedQuery compiled against the vocabulary: which postings lists to scan, which of them score, and
// which bit each sets so the match rules (AND of ORs, exclusions, field restrictions) can be checked
// per document from a bit mask. Pure given the `lookup` function.
//
// Stopwords (shared/analysis `isStopword`) do not score when the query has other words, and an
// alternative or group made only of stopwords is dropped when the query has others: "the python
// tutorial" finds pages about a Python tutorial whether or not they say "the". Inside a phrase every
// word must be there (checked on the text).

import type { QueryAtom, ParsedQuery } from '../query/index.js';
import { FIELDS, phrasePairToken } from '../../shared/index-format/index.js';
import {
  accentFold,
  analyze,
  definedNameToken,
  definedStemToken,
  foldToken,
  hyphenCompounds,
  isCamelCase,
  isCjk,
  isConstantName,
  isFoldToken,
  isIdentifierToken,
  isLongOption,
  isStopword,
  memberNameToken,
  optionToken,
  PAIR_SEPARATOR,
  queryVariantLanguages,
  registryVersion,
  tokenAt,
  stemSplits,
  stemWord,
  spellingVariants as otherSpellings,
  tokenize,
  wordPairs,
} from '../../shared/analysis/index.js';

/** How much the optional tokens of a query word count, as a BM25 query-term weight (a word's own token: 1). */
export interface TokenWeights {
  /** An identifier's whole token (`pg_database_size`), scored beside the parts the page must have. */
  identifier: number;
  /** An accent-folded form of a word ("configuree" meeting "configurée"): below 1, so the exact form ranks first. */
  fold: number;
  /** The other stem of a word the stemmer parts from its inflections ("alias" meeting "aliases",
   * shared/analysis stemSplits). */
  split: number;
  /** A word pair of a stopword and its neighbour ("here document", "if let", shared/analysis
   * wordPairs), as a share of the pair weight: a fit (DESIGN.md "Word pairs, and a stopword beside a word"). */
  stopPair: number;
  /** The joined word of a word typed as a hyphenated compound ("e-mail": "email"), which a page writing
   * either form holds: below 1, so a page that writes it as typed ranks first. */
  compound: number;
  /** The other spelling of an English word ("licence" meeting "license", shared/analysis
   * spelling-variants.ts): below 1, so a page written as typed ranks first. */
  spelling: number;
  /** A page's defining a name the query types (an identifier, a long option or one word: shared/analysis
   * defined-names.ts), scored by presence: this times the name's idf. */
  definedName: number;
}

export const DEFAULT_TOKEN_WEIGHTS: Readonly<TokenWeights> = { identifier: 1, fold: 0.5, split: 0.5, stopPair: 0.25, definedName: 0.5, compound: 0.5, spelling: 0.5 };

/** Whether the index holds `surface` (or, with `prefix`, a word starting with it) as a surface word of
 * `term`: what confirms a stem split. */
export type HasSurface = (term: number, surface: string, prefix: boolean) => boolean;

// Identifier and fold tokens are added beside a word's own tokens: a page need not have them.
const isOptional = (t: string) => isIdentifierToken(t) || isFoldToken(t);

export interface KeyPlan {
  term: number;
  token: string;
  /** Field index the match is restricted to, -1 for any field. */
  field: number;
  scored: boolean;
  /** How many times the query asks for the token (BM25's query term frequency: "titles ... titles"). */
  weight: number;
  /** The bit this key sets per document, -1 when only scored. */
  bit: number;
  /** Applies only to documents in this language: a Spanish stem of a query word is looked for in
   * Spanish pages only (in English ones "lin", the Spanish stem of "line", is a rare word of its own). */
  language?: string;
  /** Only another form of a query word (an accent fold, a joined compound, a stem split, the other
   * spelling): a page holding the word need not hold it too. */
  variant?: true;
  /** The document frequency its idf is computed from when not its own list's: the largest among one
   * query word's stems in its languages (blendLanguageFrequencies). */
  docFreq?: number;
}

/** The document frequency a key's idf is computed from. */
export const keyDocFreq = (key: KeyPlan, docFreq: (term: number) => number): number => key.docFreq ?? docFreq(key.term);

/** One way an atom can match: every token present (bits), and for a phrase, in a row. */
export interface AlternativePlan {
  bits: number[];
  /** Shared with every query that has the same word (tokenVariants remembers them): read only. */
  tokens: readonly string[];
  /** The tokens a phrase must have in a row: `tokens` without the CJK bigrams added beside words. */
  phraseTokens: readonly string[];
}

export interface AtomPlan {
  atom: QueryAtom;
  /** Its words must stand in a row: a quoted phrase, or words joined by hyphens (isPhraseAtom). */
  phrase: boolean;
  /** A phrase typed in quotes. Words joined by hyphens are not: ranking reads them as words (they stand
   * near the query's other words, a heading may open with them), only the match asks them in a row. */
  quoted: boolean;
  /** Empty when some token of every alternative is unknown to the index: the atom matches nothing. */
  alternatives: AlternativePlan[];
}

export interface QueryPlan {
  /** Required groups still in force (stopword-only groups dropped when others remain). */
  groups: AtomPlan[][];
  excluded: AtomPlan[];
  keys: KeyPlan[];
  /** 32-bit words per document mask. */
  maskWords: number;
}

const FIELD_INDEX: Record<NonNullable<QueryAtom['field']>, number> = {
  title: FIELDS.indexOf('title'),
  url: FIELDS.indexOf('url'),
};

const sameTokens = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * `compute(atom)`, remembered by all it reads: the atom's text and tokens, and the registered languages
 * (registryVersion). A query's words are analysed in every query-variant language, several times per
 * atom, and distinct queries share most words ("map", "iterator"): a profile of `serve` under load had
 * planning at 6% of a request, more than ranking. Bounded, cleared when full as the snippet regexes
 * are; results are frozen, since every query that asks shares them.
 */
function memoByAtom<T>(compute: (atom: QueryAtom) => T): (atom: QueryAtom) => T {
  const memo = new Map<string, T>();
  return (atom) => {
    const id = `${registryVersion()}\u0000${atom.text}\u0000${atom.tokens.join('\u0000')}`;
    let value = memo.get(id);
    if (value === undefined) {
      if (memo.size >= MEMO_ATOMS) memo.clear();
      value = deepFreeze(compute(atom));
      memo.set(id, value);
    }
    return value;
  };
}

/** Atoms whose analysis is remembered (each a few hundred bytes). */
const MEMO_ATOMS = 4096;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The token lists an atom may match: the parser's, and the stems of each query-variant language
 * (Spanish: shared/analysis/languages/) when they differ; each with the tokens a phrase needs in a row. */
export const tokenVariants = memoByAtom(analyseVariants);

function analyseVariants(atom: QueryAtom): readonly Readonly<{ tokens: readonly string[]; phraseTokens: readonly string[]; language?: string }>[] {
  const required = atom.tokens.filter((t) => !isOptional(t));
  // Only when the atom's text is what produced its tokens (it is not, e.g., a field prefix form).
  if (!sameTokens(tokenize(atom.text), atom.tokens)) return [{ tokens: required, phraseTokens: required }];
  const primary = (language: string) => analyze(atom.text, language).filter((s) => !s.extra).map((s) => s.token);
  const variants: { tokens: string[]; phraseTokens: string[]; language?: string }[] = [{ tokens: required, phraseTokens: primary('') }];
  for (const language of queryVariantLanguages()) {
    const stems = tokenize(atom.text, language).filter((t) => !isOptional(t));
    if (!sameTokens(stems, required)) variants.push({ tokens: stems, phraseTokens: primary(language), language });
  }
  return variants;
}

/**
 * Whether an atom is searched as a phrase: quoted, or words typed joined by hyphens (`hard-stop-after`,
 * `x-forwarded-for`), which name one thing, so their words must stand in a row, stopwords included
 * (Xapian's query parser and large web engines read them so). Read as loose words, the page saying
 * "the hard stop is simple" outranked the one defining `hard-stop-after`. A two-word compound still
 * meets its joined spelling ("e-mail": "email", compoundVariants).
 */
export function isPhraseAtom(atom: QueryAtom): boolean {
  return atom.kind === 'phrase' || (atom.field !== 'url' && HYPHEN_JOINED.test(atom.text));
}

const HYPHEN_JOINED = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+$/u;

/** The identifiers' whole tokens of an atom (`os.path.join`): scored, not required. */
export const identifierTokens = (atom: QueryAtom): string[] => atom.tokens.filter(isIdentifierToken);

/** The defined-name terms (shared/analysis defined-names.ts) an atom meets, each as the terms to try in
 * order, the first one the index holds met: an atom's identifiers, a long option's token
 * ("--num-callers"), or a one-word atom ("DocumentRoot") when the query is that word alone or the word
 * is written as a name. One word meets the pages defining it as typed ("ets": `ets`, not `et`), and only
 * when none does, the pages defining a word of its stem ("sockets": `socket`). */
function definedTermChoices(atom: QueryAtom, alone: boolean): string[][] {
  if (atom.kind === 'term' && isLongOption(atom.text)) {
    const words = atom.tokens.filter((t) => !isOptional(t));
    return words.length > 0 ? [[definedNameToken(optionToken(words))]] : [];
  }
  const identifiers = identifierTokens(atom);
  if (identifiers.length > 0 || atom.kind !== 'term' || atom.tokens.length !== 1) return identifiers.map((token) => [definedNameToken(token)]);
  // A word in small letters among others is a word of the question, not a name ("spell checking" is
  // not Vim's 'spell' option, which options.html defines); typed alone, or marked as a name by its
  // writing (`DocumentRoot`, `'tabstop'`, `:normal`), it may be one.
  if (!alone && !/[^\p{Ll}\p{N}]/u.test(atom.text)) return [];
  const spelled = oneWord(atom);
  const stem = definedStemToken(atom.tokens[0]!);
  return [spelled === undefined ? [stem] : [definedNameToken(spelled), stem]];
}

/**
 * The accent-folded ways a one-word atom may match, each a token and the page language it applies to
 * ('' for all pages): the fold token of its unaccented spelling per stemmer (an unaccented query meets
 * accented words), and for an accented word also its unaccented spelling as a word (pages typed without
 * accents). Language-scoped as tokenVariants' stems are.
 */
export const foldVariants = memoByAtom(analyseFolds);

/** The one word an atom is, as written (folded), when its text is a single word that gave its token. */
function oneWord(atom: QueryAtom): string | undefined {
  const words = analyze(atom.text).filter((s) => !s.extra);
  return words.length === 1 && words[0]!.token === atom.tokens[0] ? words[0]!.word : undefined;
}

function analyseFolds(atom: QueryAtom): readonly Readonly<{ token: string; language: string }>[] {
  const word = oneWord(atom);
  if (word === undefined) return [];
  const plain = accentFold(word);
  const out: { token: string; language: string }[] = [];
  // The atom's own fold token is among its tokens, but optional there (scored where a page has it, never
  // searched for): it is the way to pages that spell the word with other accents, so it is an
  // alternative as any other fold token. Left out, "ışık" missed a Turkish page's "Işık" (lower-cased
  // "işık"), "hòa" a Vietnamese page's "hoà", "événement" a French page's "évènement".
  const seen = new Set(atom.tokens.filter((t) => !isFoldToken(t)));
  for (const language of ['', ...queryVariantLanguages()]) {
    for (const token of [foldToken(word, language), ...(plain !== word ? [stemWord(plain, language)] : [])]) {
      if (seen.has(token)) continue;
      seen.add(token);
      out.push({ token, language });
    }
  }
  return out;
}

/** The token of the joined word of an atom typed as one two-word hyphenated compound ("e-mail": "email";
 * shared/analysis compounds.ts): pages writing "email" hold it, and so do pages writing "e-mail" (the
 * indexer adds it), so it is one more way for the atom to match. */
export const compoundVariants = memoByAtom(analyseCompound);

function analyseCompound(atom: QueryAtom): readonly string[] {
  if (atom.kind !== 'term') return [];
  const found = hyphenCompounds(atom.text);
  const c = found[0];
  if (found.length !== 1 || c === undefined || c.start !== 0 || c.end !== atom.text.length) return [];
  const token = tokenAt(c.joined, 0, '')?.token;
  return token === undefined || atom.tokens.includes(token) ? [] : [token];
}

/** The tokens of the other spellings of a one-word atom ("licence": the token of "license"; shared/analysis
 * spelling-variants.ts), each one more way for the atom to match. */
export const spellingVariants = memoByAtom(analyseSpelling);

function analyseSpelling(atom: QueryAtom): readonly string[] {
  const word = atom.kind === 'term' ? oneWord(atom) : undefined;
  if (word === undefined) return [];
  const out: string[] = [];
  for (const variant of otherSpellings(word)) {
    const token = tokenAt(variant, 0, '')?.token;
    if (token !== undefined && !atom.tokens.includes(token) && !out.includes(token)) out.push(token);
  }
  return out;
}

const isStopAtom = (atom: QueryAtom) => atom.kind === 'term' && atom.tokens.length > 0 && atom.tokens.every(isStopword);

/**
 * One query word's stems in several languages ("proxy": English "proxi", French "proxy") share the
 * largest of their document frequencies. Each language's stem is counted over that language's pages,
 * so on a site mostly in English a French stem is rare and its idf high: the French translation of a
 * page outranked the English original for an English query (Apache's manual, 2,140 pages in 9
 * languages: "mod_proxy", "server status page"). Elasticsearch's cross_fields blends a term's
 * frequency across fields for the same reason. Variants are compared position by position when they
 * have as many tokens.
 */
function blendLanguageFrequencies(variants: readonly KeyPlan[][], docFreq: (term: number) => number): void {
  if (variants.length < 2) return;
  const width = variants[0]!.length;
  if (variants.some((v) => v.length !== width)) return;
  for (let i = 0; i < width; i++) {
    const keys = variants.map((v) => v[i]!);
    if (keys.every((k) => k.term === keys[0]!.term)) continue;
    const most = Math.max(...keys.map((k) => keyDocFreq(k, docFreq)));
    for (const k of keys) k.docFreq = most;
  }
}

/** The word pairs of a query (shared/analysis wordPairs): its term atoms' words in the order typed. */
export function queryPairs(query: ParsedQuery): string[] {
  const tokens = query.required.flat().filter((a) => a.kind === 'term').flatMap((a) => tokenVariants(a)[0]!.phraseTokens);
  return [...new Set(wordPairs(tokens))];
}

/** `pairWeight` scales the word-pair keys' scores (rank.ts RankParams.pairWeight); 0 leaves them out. */
export function compileQuery(
  query: ParsedQuery,
  lookup: (token: string) => number | undefined,
  pairWeight = 0,
  weights: Readonly<TokenWeights> = DEFAULT_TOKEN_WEIGHTS,
  hasSurface?: HasSurface,
  docFreq?: (term: number) => number,
  /** Whether the index holds pages in `language`. A key restricted to a language it holds none of
   * (a Spanish stem on an English site) matches and scores no page: it is left out, with the
   * alternatives that need it, so no scan walks its postings and no bound counts it. */
  hasLanguage?: (language: string) => boolean,
  /** IndexManifest.phrasePairMinDocs (0: the index has no phrase pairs): a phrase also asks for the
   * pair terms of its neighbouring words that are each in this many documents (with `docFreq`). */
  phrasePairMinDocs = 0,
): QueryPlan {
  let keys: KeyPlan[] = [];
  const dead = (k: KeyPlan): boolean => k.language !== undefined && hasLanguage !== undefined && !hasLanguage(k.language);
  /** Per bit, its key: an alternative needing a dead key's bit can match nothing. */
  const keyOfBit: KeyPlan[] = [];
  const keyIndex = new Map<string, number>();
  let bits = 0;

  const hasContent = query.required.some((g) => g.some((a) => !isStopAtom(a) && a.tokens.length > 0));
  let groups = query.required
    .map((g) => (hasContent && g.some((a) => !isStopAtom(a)) ? g.filter((a) => !isStopAtom(a)) : g))
    .filter((g) => g.length > 0);
  if (hasContent) groups = groups.filter((g) => !g.every(isStopAtom));
  const scoringTokens = groups.flat().flatMap((a) => a.tokens);
  // Whether the query is one word (or name): a plain word then may be a name a page defines.
  const alone = groups.flat().length === 1;
  const anyContentToken = scoringTokens.some((t) => !isStopword(t));

  const key = (term: number, token: string, field: number, scored: boolean, needBit: boolean, language?: string, weight = 1, variant = false): KeyPlan => {
    const id = `${term}:${field}:${language ?? ''}`;
    let k = keys[keyIndex.get(id) ?? -1];
    if (!k) {
      k = { term, token, field, scored: false, weight: 0, bit: -1, ...(language ? { language } : {}), ...(variant ? { variant: true as const } : {}) };
      keyIndex.set(id, keys.length);
      keys.push(k);
    } else if (!variant) delete k.variant;
    if (scored) {
      k.scored = true;
      k.weight += weight;
    }
    if (needBit && k.bit < 0) {
      k.bit = bits++;
      keyOfBit[k.bit] = k;
    }
    return k;
  };

  /** The bits of a phrase's pair terms (shared/index-format phrase-pairs.ts): only filters, never
   * scored. Undefined when a pair of common words is not in the index. */
  const phrasePairBits = (phraseTokens: readonly string[]): number[] | undefined => {
    if (phrasePairMinDocs <= 0 || docFreq === undefined || phraseTokens.some(isCjk)) return [];
    const common = (token: string) => {
      const term = lookup(token);
      return term !== undefined && docFreq(term) >= phrasePairMinDocs;
    };
    const out: number[] = [];
    for (let i = 0; i + 1 < phraseTokens.length; i++) {
      if (!common(phraseTokens[i]!) || !common(phraseTokens[i + 1]!)) continue;
      const token = phrasePairToken(phraseTokens[i]!, phraseTokens[i + 1]!);
      const term = lookup(token);
      if (term === undefined) return undefined;
      out.push(key(term, token, -1, false, true).bit);
    }
    return out;
  };

  /** Per query token, the other stems a stem split confirmed for it ("alia": "alias"). */
  const splitsOf = new Map<string, string[]>();

  const planAtom = (atom: QueryAtom, scoring: boolean): AtomPlan => {
    const field = atom.field === undefined ? -1 : FIELD_INDEX[atom.field];
    const alternatives: AlternativePlan[] = [];
    const variantKeys: KeyPlan[][] = [];
    for (const { tokens, phraseTokens, language } of tokenVariants(atom)) {
      if (tokens.length === 0) continue;
      const terms = tokens.map(lookup);
      if (terms.some((t) => t === undefined)) continue;
      const altKeys = tokens.map((token, i) => {
        const scored = scoring && (!isStopword(token) || !anyContentToken);
        // A variant's token that the atom's own tokens also have is the same key, for every page.
        const only = language !== undefined && !atom.tokens.includes(token) ? language : undefined;
        return key(terms[i]!, token, field, scored, true, only);
      });
      const pairBits = isPhraseAtom(atom) ? phrasePairBits(phraseTokens) : [];
      // A pair of common words the index lacks: no page has the phrase this way.
      if (pairBits === undefined) continue;
      variantKeys.push(altKeys);
      alternatives.push({ bits: [...new Set([...altKeys.map((k) => k.bit), ...pairBits])], tokens, phraseTokens });
    }
    if (docFreq !== undefined) blendLanguageFrequencies(variantKeys, docFreq);
    for (const { token, language } of foldVariants(atom)) {
      const term = lookup(token);
      if (term === undefined) continue;
      const scored = scoring && (!isStopword(token) || !anyContentToken);
      const bit = key(term, token, field, scored, true, language === '' ? undefined : language, weights.fold, true).bit;
      alternatives.push({ bits: [bit], tokens: [token], phraseTokens: [token] });
    }
    for (const token of spellingVariants(atom)) {
      const term = lookup(token);
      if (term === undefined) continue;
      const bit = key(term, token, field, scoring, true, undefined, weights.spelling, true).bit;
      alternatives.push({ bits: [bit], tokens: [token], phraseTokens: [token] });
    }
    for (const token of compoundVariants(atom)) {
      const term = lookup(token);
      if (term === undefined) continue;
      // "in-to" joins into the stopword "into": it matches, but scores only as any stopword would.
      const scored = scoring && (!isStopword(token) || !anyContentToken);
      const bit = key(term, token, field, scored, true, undefined, weights.compound, true).bit;
      alternatives.push({ bits: [bit], tokens: [token], phraseTokens: [token] });
    }
    if (hasSurface !== undefined && atom.kind === 'term' && atom.tokens.length === 1) {
      for (const { token, surface, prefix } of stemSplits(atom.text.toLowerCase())) {
        const term = lookup(token);
        if (term === undefined || !hasSurface(term, surface, prefix)) continue;
        const scored = scoring && !isStopword(token);
        const bit = key(term, token, field, scored, true, undefined, weights.split, true).bit;
        alternatives.push({ bits: [bit], tokens: [token], phraseTokens: [token] });
        if (scoring) splitsOf.set(atom.tokens[0]!, [...(splitsOf.get(atom.tokens[0]!) ?? []), token]);
      }
    }
    // The whole identifier only scores: its parts are what a page must have. So does a page's
    // defining it (shared/analysis defined-names.ts), in any field.
    if (scoring && alternatives.length > 0) {
      for (const token of identifierTokens(atom)) {
        const term = lookup(token);
        if (term !== undefined) key(term, token, field, true, false, undefined, weights.identifier);
      }
      for (const choices of weights.definedName > 0 && field < 0 ? definedTermChoices(atom, alone) : []) {
        const token = choices.find((choice) => lookup(choice) !== undefined);
        if (token !== undefined) key(lookup(token)!, token, -1, true, false, undefined, weights.definedName);
      }
      // A word written in camel case also meets the pages defining it as a qualified name's member
      // (`readFileSync`: Node's fs.readFileSync), and one in capitals the pages defining it so
      // (`DEBUG`), spelled as typed (shared/analysis memberNameToken).
      if (weights.definedName > 0 && field < 0 && atom.kind === 'term' && (isCamelCase(atom.text) || isConstantName(atom.text))) {
        const member = lookup(memberNameToken(atom.text));
        if (member !== undefined) key(member, memberNameToken(atom.text), -1, true, false, undefined, weights.definedName);
      }
    }
    // After the idf blend above, which still reads the left-out variants' frequencies: the scores stay as they were.
    const live = hasLanguage === undefined ? alternatives : alternatives.filter((alt) => !alt.bits.some((b) => dead(keyOfBit[b]!)));
    const phrase = isPhraseAtom(atom) && tokenVariants(atom)[0]!.phraseTokens.length > 1;
    return { atom, phrase, quoted: phrase && atom.kind === 'phrase', alternatives: live };
  };

  const plannedGroups = groups.map((g) => g.map((a) => planAtom(a, true)));
  // Word pairs only score (a page need not have them); a query of one word has none. They come from
  // the query as typed: a stopword dropped from the groups still pairs with its neighbour.
  if (pairWeight > 0) {
    const pairs = queryPairs(query);
    const share = (pair: string) => (pair.split(PAIR_SEPARATOR).some(isStopword) ? weights.stopPair : 1);
    for (const pair of pairs) {
      const term = lookup(pair);
      if (term !== undefined) key(term, pair, -1, true, false).weight = pairWeight * share(pair);
    }
    // A word's confirmed other stem pairs too, at the split weight: "type alias" meets the heading
    // "Type Aliases" ("type alias", where the query's own pair is "type alia").
    for (const pair of pairs) {
      const [first, second] = pair.split(PAIR_SEPARATOR) as [string, string];
      const others = [...(splitsOf.get(first) ?? []).map((s) => s + PAIR_SEPARATOR + second), ...(splitsOf.get(second) ?? []).map((s) => first + PAIR_SEPARATOR + s)];
      for (const other of others) {
        const term = lookup(other);
        if (term === undefined || keyIndex.has(`${term}:-1:`)) continue;
        key(term, other, -1, true, false).weight = pairWeight * share(pair) * weights.split;
      }
    }
  }
  const excluded = query.excluded.map((a) => planAtom(a, false));
  if (hasLanguage !== undefined) keys = keys.filter((k) => !dead(k));
  // A restricted key and an unrestricted one for the same term would score twice: keep the unrestricted.
  const unrestricted = new Set(keys.filter((k) => k.field < 0 && k.scored).map((k) => k.term));
  for (const k of keys) if (k.field >= 0 && unrestricted.has(k.term)) k.scored = false;
  return { groups: plannedGroups, excluded, keys, maskWords: Math.max(1, Math.ceil(bits / 32)) };
}
