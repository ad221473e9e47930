// One document's fields to term frequencies per field. Pure.

import { FIELD_COUNT, FIELD_SPAN, FIELDS, MAX_TF, WORD_MAP_STEP, encodePositions, encodeWordMap, fieldTexts, positionOf, type StoredDoc } from '../shared/index-format/index.js';
import { analyze, camelCaseMember, countsInLength, isConstantName, definedNameToken, definedStemToken, hyphenCompounds, memberNameToken, namespacedTypeJoined, tokenAt, isIdentifierToken, isLongOption, optionToken, qualifiedForms, pairPlaces, PAIR_SEPARATOR, primaryTokens, scanTokens, tokenNumbering, type TokenNumbers, type TokenSink } from '../shared/analysis/index.js';

export interface AnalyzedDoc {
  /** Distinct terms in first-seen order. */
  terms: string[];
  /** FIELD_COUNT frequencies per term, aligned with `terms`, capped at MAX_TF. */
  tfs: Uint8Array;
  /** The shortest surface word seen per term, aligned with `terms`. */
  words: string[];
  /** The other surface words of a term in this document ("partitioning" beside "partition"), aligned
   * with `terms`; a hole (most terms) when there is none, so that the array sent to the build thread
   * holds only the terms with some (a message carries a sparse array's elements, not its holes).
   * "Did you mean" offers real words from them. */
  forms: (string[] | undefined)[];
  /** Tokens per field, in FIELDS order. */
  fieldLength: number[];
  /** Each term's word positions (shared/index-format positions.ts), encoded: term s's bytes are
   * positions[positionEnds[s - 1] ?? 0, positionEnds[s]); none for word pairs and added tokens. */
  positions: Uint8Array;
  positionEnds: Uint32Array;
  /** The body's word map, encoded (shared/index-format word-map.ts). */
  wordMap: number[];
  /** In a thread whose tokenizer numbers its tokens (shared/analysis numberTokens): each term's and
   * word's number in `by`, aligned with `terms`, and each form's, aligned with `forms` (-1: the table
   * was full). term-wire.ts sends them. */
  tokenNumbers?: { by: TokenNumbers; terms: Int32Array; words: Int32Array; forms: (number[] | undefined)[] };
}

// Per-field counts of the document being analysed, reused across documents (grown when needed), and
// each term's token and word numbers (one a term: grown with it).
let scratch = new Uint32Array(1024 * FIELD_COUNT);
let termNumbers = new Int32Array(1024);
let wordNumbers = new Int32Array(1024);

/** `a` copied into a zeroed array of its kind, `length` long: how this module's reused arrays grow. */
function grown<A extends Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(a: A, length: number): A {
  const bigger = a instanceof Int32Array ? new Int32Array(length) : new Uint32Array(length);
  bigger.set(a);
  return bigger as A;
}

// Each numbered token's slot in the document being analysed, reused across documents: slotOf[n] is
// token n's slot when slotStamp[n] is this document's stamp, else it has none yet. A Map per document
// cost a hash, a probe and an entry per token (13% of analysing a SciFact abstract).
let slotOf = new Int32Array(0);
let slotStamp = new Uint32Array(0);
let stamp = 0;

/** A new document's stamp: every token's slot from before is stale. */
function nextStamp(): number {
  if (stamp === 0xffffffff) {
    slotStamp.fill(0);
    stamp = 0;
  }
  return ++stamp;
}

function setSlot(n: number, s: number, docStamp: number): void {
  if (n >= slotOf.length) {
    const length = Math.max(n + 1, slotOf.length * 2, 1024);
    slotOf = grown(slotOf, length);
    slotStamp = grown(slotStamp, length);
  }
  slotOf[n] = s;
  slotStamp[n] = docStamp;
}

// The document's word positions as they are met, each with its term's slot, reused across documents
// (grown when needed); placesByTerm sorts them by slot. An array per term, grown as its positions came,
// was two thirds of what an analysis thread allocated (SciFact: 41 of 58 KB a document; DESIGN.md "A
// document's postings added at once, its positions gathered flat"). A position is below
// FIELD_COUNT * FIELD_SPAN, 2^32 for 16 fields: a Uint32Array holds it (checked below).
let placeSlot = new Int32Array(4096);
let placeValue = new Uint32Array(4096);
let placeCount = 0;
let placeSorted = new Uint32Array(4096);
let placeEnds = new Int32Array(1024);

/** Sorts the positions met by their term's slot into placeSorted (a counting sort: stable, so each
 * term's stay ascending, as they were met); term t's are [placeEnds[t - 1] (0 for the first),
 * placeEnds[t]). */
function placesByTerm(terms: number): Int32Array {
  if (placeEnds.length < terms + 1) placeEnds = new Int32Array(2 * (terms + 1));
  if (placeSorted.length < placeCount) placeSorted = new Uint32Array(placeSlot.length);
  const ends = placeEnds;
  ends.fill(0, 0, terms + 1);
  for (let i = 0; i < placeCount; i++) ends[placeSlot[i]! + 1]!++;
  for (let t = 1; t <= terms; t++) ends[t]! += ends[t - 1]!;
  // ends[t] is term t's start; each position placed moves it on, to its end.
  for (let i = 0; i < placeCount; i++) placeSorted[ends[placeSlot[i]!]!++] = placeValue[i]!;
  return ends;
}

if (positionOf(FIELD_COUNT - 1, FIELD_SPAN - 1) > 0xffffffff) throw new Error('word positions no longer fit a Uint32Array (analyze-doc.ts placeValue)');

export function analyzeDoc(doc: StoredDoc): AnalyzedDoc {
  // Terms are found by their numbers when the tokenizer numbers them (most tokens come numbered, from
  // its word cache), else by their strings; a string has a number for good or never, so no term is
  // found both ways.
  const numbers = tokenNumbering();
  const docStamp = nextStamp();
  // A document that threw part way leaves its positions behind.
  placeCount = 0;
  const slot = new Map<string, number>();
  const terms: string[] = [];
  const words: string[] = [];
  const forms: (string[] | undefined)[] = [];
  // Their numbers in `numbers` (-1: none), when it numbers them, each beside its form.
  const formNumbers: (number[] | undefined)[] = [];
  const fieldLength = new Array<number>(FIELD_COUNT).fill(0);
  const texts = fieldTexts(doc);
  let field = 0;
  // Where each heading or anchor text starts in its field's text (joined by '\n'), and which one the
  // scan is in: a phrase does not run from one into the next (positions.ts).
  let segmentStarts: number[] = [];
  let segment = 0;
  // The word map of the body: checkpoints every WORD_MAP_STEP words, each section's first word.
  const checkChars: number[] = [];
  const checkBytes: number[] = [];
  const sections = [...(doc.sections ?? [])].sort((a, b) => a.start - b.start);
  const sectionPlaces: number[] = [];
  let lastChar = 0;
  let lastByte = 0;
  let bodyWords = 0;
  // The snake_case names of the field, to be added joined once it is scanned (a sink must not tokenize);
  // only while the fields' texts are scanned, not for the pairs and names sunk after them.
  const snakeNames: string[] = [];
  let scanningFields = true;
  const sink: TokenSink = (token, word, start, _end, position, extra, givenTokenNumber, givenWordNumber) => {
    if (extra && scanningFields && SNAKE_NAME.test(token)) snakeNames.push(token);
    let tokenNumber = givenTokenNumber ?? -1;
    let wordNumber = givenWordNumber ?? -1;
    // A token that comes without a number (an identifier's whole, a pair of words one of which has
    // none, CJK) is numbered here.
    if (numbers !== undefined && givenTokenNumber === undefined) {
      tokenNumber = numbers.numberOf(token);
      wordNumber = word === token ? tokenNumber : numbers.numberOf(word);
    }
    let s = tokenNumber >= 0 ? (tokenNumber < slotOf.length && slotStamp[tokenNumber] === docStamp ? slotOf[tokenNumber] : undefined) : slot.get(token);
    if (s === undefined) {
      s = terms.length;
      if (tokenNumber >= 0) setSlot(tokenNumber, s, docStamp);
      else slot.set(token, s);
      terms.push(token);
      words.push(word);
      if ((s + 1) * FIELD_COUNT > scratch.length) {
        scratch = grown(scratch, scratch.length * 2);
        termNumbers = grown(termNumbers, scratch.length / FIELD_COUNT);
        wordNumbers = grown(wordNumbers, scratch.length / FIELD_COUNT);
      }
      termNumbers[s] = tokenNumber;
      wordNumbers[s] = wordNumber;
      for (let f = s * FIELD_COUNT; f < (s + 1) * FIELD_COUNT; f++) scratch[f] = 0;
    } else if (wordNumber >= 0 ? wordNumber !== wordNumbers[s] : word !== words[s]) {
      const other = forms[s] ?? (forms[s] = []);
      // The shorter word is the term's word here, the other a form.
      const shorter = word.length < words[s]!.length;
      const kept = shorter ? words[s]! : word;
      const keptNumber = shorter ? wordNumbers[s]! : wordNumber;
      if (shorter) {
        words[s] = word;
        wordNumbers[s] = wordNumber;
      }
      if (!other.includes(kept)) {
        other.push(kept);
        if (numbers !== undefined) (formNumbers[s] ??= []).push(keptNumber);
      }
    }
    scratch[s * FIELD_COUNT + field]!++;
    if (countsInLength(token, extra)) fieldLength[field]!++;
    if (!extra) {
      while (segment + 1 < segmentStarts.length && segmentStarts[segment + 1]! <= start) segment++;
      const place = position + segment;
      if (place < FIELD_SPAN) {
        if (placeCount === placeSlot.length) {
          placeSlot = grown(placeSlot, 2 * placeCount);
          placeValue = grown(placeValue, 2 * placeCount);
        }
        placeSlot[placeCount] = s;
        placeValue[placeCount++] = positionOf(field, place);
      }
      if (field === BODY) {
        bodyWords = position + 1;
        while (sectionPlaces.length < sections.length && sections[sectionPlaces.length]!.start <= start) sectionPlaces.push(position);
        if (position % WORD_MAP_STEP === 0) {
          lastByte += Buffer.byteLength(doc.body.slice(lastChar, start), 'utf8');
          lastChar = start;
          checkChars.push(start);
          checkBytes.push(lastByte);
        }
      }
    }
  };
  /** A term beside the field's words: counted in the field, not in its length, no position. */
  const addExtra = (token: string, word: string): void => {
    const before = fieldLength[field]!;
    sink(token, word, 0, 0, 0, true);
    fieldLength[field] = before;
  };
  for (field = 0; field < FIELD_COUNT; field++) {
    segmentStarts = segmentStartsOf(field === HEADINGS ? doc.headings : field === ANCHOR ? doc.anchor : []);
    segment = 0;
    scanTokens(texts[field]!, doc.language, sink);
    // A hyphenated compound's joined word too ("e-mail": "email"; shared/analysis compounds.ts), beside
    // its two words, without a position and outside the field's length, as an identifier's whole is.
    for (const c of hyphenCompounds(texts[field]!)) {
      const token = tokenAt(c.joined, 0, doc.language)?.token;
      if (token !== undefined) addExtra(token, c.written);
    }
    // A snake_case name's parts run together too (`EXTENDED_GLOB`: "extendedglob"), as Zsh writes its
    // options either way and users type them: a word, matched as typed, outside the field's length.
    for (const name of snakeNames.splice(0)) {
      const token = tokenAt(name.replace(/_/g, ''), 0, doc.language)?.token;
      if (token !== undefined) addExtra(token, name);
    }
  }
  scanningFields = false;
  while (sectionPlaces.length < sections.length) sectionPlaces.push(bodyWords);
  // Word pairs of the short fields (see shared/analysis wordPairs); they are not words, so the
  // field lengths stay as counted.
  const pairSources: [number, readonly string[]][] = [
    [FIELDS.indexOf('title'), [doc.title]],
    [FIELDS.indexOf('headings'), doc.headings],
    [FIELDS.indexOf('anchor'), doc.anchor],
  ];
  const lengths = [...fieldLength];
  for (const [f, texts] of pairSources) {
    field = f;
    // Pairs are not words: `extra`, so they get no positions.
    for (const text of texts) sinkPairs(text, doc.language, numbers, sink);
  }
  // The names the page defines (crawler/defined-names.ts) are heading words of it: each one's whole
  // identifier token, once, outside the field's length and without positions (no phrase runs into them).
  field = HEADINGS;
  const defined = new Set<string>();
  const spelledDefined = new Set<string>();
  for (const name of doc.defines ?? []) {
    // A name in capitals is a plain word folded: it is defined as written only (below).
    if (isConstantName(name)) continue;
    const whole = identifierToken(name, doc.language);
    if (whole !== undefined) sink(whole, name, 0, 0, 0, true);
    // And a term of its own per way of naming it (shared/analysis defined-names.ts), scored by presence:
    // a camel-case name ("DocumentRoot") is one word, its token.
    for (const form of qualifiedForms(name)) {
      const token = form === name ? (whole ?? wordToken(name, doc.language)) : identifierToken(form, doc.language);
      if (token === undefined) continue;
      // One word is defined as spelled, and under its stem apart (shared/analysis definedStemToken).
      const spelled = whole === undefined && form === name ? spelledWord(name, doc.language) : undefined;
      if (spelled !== undefined && !spelledDefined.has(spelled)) {
        spelledDefined.add(spelled);
        sink(definedNameToken(spelled), form, 0, 0, 0, true);
      }
      if (defined.has(token)) continue;
      defined.add(token);
      sink(spelled === undefined ? definedNameToken(token) : definedStemToken(token), form, 0, 0, 0, true);
    }
  }
  // A qualified name's camel-case member alone (`readFileSync` of `fs.readFileSync`), as written: a
  // reader types it so. Not where the page defines the word itself (`setTimeout(`), which counts once.
  // A name in capitals (`DEBUG`, `HISTSIZE`) as written too, and only so.
  const members = new Set<string>();
  for (const name of doc.defines ?? []) {
    const member = camelCaseMember(name) ?? (isConstantName(name) ? name : namespacedTypeJoined(name));
    if (member === undefined || members.has(member)) continue;
    const token = wordToken(member, doc.language);
    if (token !== undefined && defined.has(token)) continue;
    members.add(member);
    sink(memberNameToken(member), member, 0, 0, 0, true);
  }
  for (let f = 0; f < FIELD_COUNT; f++) fieldLength[f] = lengths[f]!;
  const tfs = new Uint8Array(terms.length * FIELD_COUNT);
  for (let i = 0; i < tfs.length; i++) tfs[i] = Math.min(scratch[i]!, MAX_TF);
  const out = { bytes: new Uint8Array(256) };
  const positionEnds = new Uint32Array(terms.length);
  let at = 0;
  const ends = placesByTerm(terms.length);
  for (let t = 0; t < terms.length; t++) positionEnds[t] = at = encodePositions(placeSorted, out, at, t === 0 ? 0 : ends[t - 1]!, ends[t]);
  const wordMap = encodeWordMap(checkChars, checkBytes, sectionPlaces);
  const analysed: AnalyzedDoc = { terms, tfs, words, forms, fieldLength, positions: out.bytes.subarray(0, at), positionEnds, wordMap };
  if (numbers !== undefined) analysed.tokenNumbers = { by: numbers, terms: termNumbers.slice(0, terms.length), words: wordNumbers.slice(0, terms.length), forms: formNumbers };
  return analysed;
}

const BODY = FIELDS.indexOf('body');
const HEADINGS = FIELDS.indexOf('headings');
const ANCHOR = FIELDS.indexOf('anchor');

/** The word pairs of a short text (shared/analysis wordPairs) to `sink`, as extra tokens. When the
 * tokenizer numbers its words, a pair of two numbered words is named by their numbers
 * (TokenNumbers.pairNumberOf), and its string is made only the first time; any other is spelled and
 * numbered by the sink, as every pair was. */
function sinkPairs(text: string, language: string, numbers: TokenNumbers | undefined, sink: TokenSink): void {
  const tokens: string[] = [];
  const tokenNumbers: number[] = [];
  scanTokens(text, language, (token, _word, _start, _end, _position, extra, tokenNumber) => {
    if (extra) return;
    tokens.push(token);
    tokenNumbers.push(tokenNumber ?? -1);
  });
  pairPlaces(tokens, (i, j) => {
    const spell = (): string => tokens[i]! + PAIR_SEPARATOR + tokens[j]!;
    const first = tokenNumbers[i]!;
    const second = tokenNumbers[j]!;
    const n = numbers !== undefined && first >= 0 && second >= 0 ? numbers.pairNumberOf(first, second, spell) : -1;
    if (n >= 0) {
      const pair = numbers!.strings[n]!;
      sink(pair, pair, 0, 0, 0, true, n, n);
    } else {
      const pair = spell();
      sink(pair, pair, 0, 0, 0, true);
    }
  });
}

/** An identifier's whole token of words joined by underscores only (`extended_glob`, not `os.path`,
 * `__init__` or `Vec<T>`). */
const SNAKE_NAME = /^[\p{L}\p{N}]+(?:_+[\p{L}\p{N}]+)+$/u;

/** The whole-identifier token of `name` (its first), or undefined when it analyses to none. */
function identifierToken(name: string, language: string): string | undefined {
  let whole: string | undefined;
  scanTokens(name, language, (token) => {
    if (whole === undefined && isIdentifierToken(token)) whole = token;
  });
  return whole;
}

/** The word `name` is, folded as the analyser folds it but not stemmed ("ets", "sockets"), when it is
 * one word and not a long option; else undefined. */
function spelledWord(name: string, language: string): string | undefined {
  if (isLongOption(name)) return undefined;
  const words = analyze(name, language).filter((span) => span.extra !== true);
  return words.length === 1 ? words[0]!.word : undefined;
}

/** The token of `name` when it is one word or a long option (`--num-callers`), else undefined. */
function wordToken(name: string, language: string): string | undefined {
  const tokens = primaryTokens(name, language);
  if (isLongOption(name)) return tokens.length > 0 ? optionToken(tokens) : undefined;
  return tokens.length === 1 ? tokens[0] : undefined;
}

/** Offsets where each of `parts` starts in parts.join('\n'). */
function segmentStartsOf(parts: readonly string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const part of parts) {
    starts.push(at);
    at += part.length + 1;
  }
  return starts;
}
