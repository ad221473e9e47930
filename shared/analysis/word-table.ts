// The tokenizer's cache of raw words (tokenize.ts), looked up by the characters of the text where a word
// lies, not by a string cut out of it. An index build looks up every word of every page, nearly all of
// them met before: cut out and looked up in a Map, each cost a new string, its hash and a probe that
// compared strings, a third of an analysis thread's time (DESIGN.md "Raw words looked up where they
// lie").

/** What the tokenizer keeps of a raw word: its token, its folded word, its fold token ('' for none),
 * and their numbers (-1: none; tokenize.ts numberTokens). */
export interface WordEntry {
  token: string;
  word: string;
  fold: string;
  tokenNumber: number;
  wordNumber: number;
  foldNumber: number;
}

// A slot: the word's hash, its number + 1 (0: an empty slot), where its characters start in `chars`,
// how many, and its entry's three numbers. What a lookup needs but the strings is in one place. The
// eighth number is unused: a slot of eight is 32 bytes, a power of two, found by a shift.
const SLOT = 8;
const HASH = 0;
const NUMBER = 1;
const FROM = 2;
const LENGTH = 3;
const TOKEN_NUMBER = 4;
const WORD_NUMBER = 5;
const FOLD_NUMBER = 6;

/** Raw words and their entries. Open addressing over the slots; the words' characters lie end to end
 * in one array and each word's three strings side by side in another, so a lookup compares numbers,
 * never strings (a string's characters read through a call site that met strings of many shapes went
 * through V8's slowest property load), and reads three places of memory. */
export class WordTable {
  /** The entry the last `find` found; the next one overwrites it. */
  readonly found: WordEntry = { token: '', word: '', fold: '', tokenNumber: -1, wordNumber: -1, foldNumber: -1 };
  private slots: Int32Array;
  /** Word n's token, word and fold at 3n, 3n + 1, 3n + 2. */
  private strings: string[] = [];
  private chars = new Uint16Array(1 << 14);
  private used = 0;
  private count = 0;

  /** `firstSlots`: a power of two; the slots double when half of them are taken. */
  constructor(private readonly firstSlots = 1 << 12) {
    this.slots = new Int32Array(SLOT * firstSlots);
  }

  /** Words held. */
  get size(): number {
    return this.count;
  }

  /** Whether the word text[start, end), whose wordHash is `hash`, is held; if so, `found` is its entry. */
  find(text: string, start: number, end: number, hash: number): boolean {
    const slots = this.slots;
    const mask = slots.length / SLOT - 1;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const at = i * SLOT;
      const n = slots[at + NUMBER]! - 1;
      if (n < 0) return false;
      if (slots[at + HASH] !== hash || slots[at + LENGTH] !== length || !sameCharacters(this.chars, slots[at + FROM]!, text, start, length)) continue;
      const found = this.found;
      found.token = this.strings[3 * n]!;
      found.word = this.strings[3 * n + 1]!;
      found.fold = this.strings[3 * n + 2]!;
      found.tokenNumber = slots[at + TOKEN_NUMBER]!;
      found.wordNumber = slots[at + WORD_NUMBER]!;
      found.foldNumber = slots[at + FOLD_NUMBER]!;
      return true;
    }
  }

  /** Holds `entry` for the word text[start, end) (not held yet), whose wordHash is `hash`. */
  add(text: string, start: number, end: number, hash: number, entry: WordEntry): void {
    const length = end - start;
    if (this.used + length > this.chars.length) {
      const chars = new Uint16Array(2 * (this.used + length));
      chars.set(this.chars.subarray(0, this.used));
      this.chars = chars;
    }
    for (let k = 0; k < length; k++) this.chars[this.used + k] = text.charCodeAt(start + k);
    this.strings.push(entry.token, entry.word, entry.fold);
    const n = this.count++;
    const at = place(this.slots, hash);
    const slots = this.slots;
    slots[at + HASH] = hash;
    slots[at + NUMBER] = n + 1;
    slots[at + FROM] = this.used;
    slots[at + LENGTH] = length;
    slots[at + TOKEN_NUMBER] = entry.tokenNumber;
    slots[at + WORD_NUMBER] = entry.wordNumber;
    slots[at + FOLD_NUMBER] = entry.foldNumber;
    this.used += length;
    if (2 * this.count > slots.length / SLOT) {
      const bigger = new Int32Array(2 * slots.length);
      for (let from = 0; from < slots.length; from += SLOT) {
        if (slots[from + NUMBER] !== 0) bigger.set(slots.subarray(from, from + SLOT), place(bigger, slots[from + HASH]!));
      }
      this.slots = bigger;
    }
  }

  /** Forgets every word. */
  clear(): void {
    this.strings = [];
    this.used = 0;
    this.count = 0;
    this.slots = new Int32Array(SLOT * this.firstSlots);
  }
}

/** Where the first free slot from `hash`'s starts in `slots`. */
function place(slots: Int32Array, hash: number): number {
  const mask = slots.length / SLOT - 1;
  let i = hash & mask;
  while (slots[i * SLOT + NUMBER] !== 0) i = (i + 1) & mask;
  return i * SLOT;
}

function sameCharacters(chars: Uint16Array, from: number, text: string, start: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (chars[from + k] !== text.charCodeAt(start + k)) return false;
  return true;
}

/** The hash a WordTable files the word text[start, end) under: FNV-1a over its UTF-16 units, mixed
 * after, as a slot is chosen by the low bits. */
export function wordHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
