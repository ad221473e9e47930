// The tokenizer's cache of raw words (tokenize.ts), looked up by the characters of the text where a word
// lies, not by a string cut out of it. An index build looks up every word of every page, nearly all of
// them met before: cut out and looked up in a Map, each cost a new string, its hash and a probe that
// compared strings, a third of an analysis thread's time (DESIGN.md "Raw words looked up where they
// lie").

/** Raw words and a value for each. Open addressing: a slot holds a word's hash and its number + 1 (0:
 * empty) side by side; the words' characters lie end to end in one array, so a probe compares numbers,
 * never strings (a string's characters read through a call site that met strings of many shapes went
 * through V8's slowest property load). */
export class WordTable<V> {
  private slots: Int32Array;
  private values: V[] = [];
  /** Word n's characters are chars[starts[n], starts[n + 1]). */
  private chars = new Uint16Array(1 << 14);
  private starts = new Int32Array(1 << 10);

  /** `firstSlots`: a power of two; the slots double when half of them are taken. */
  constructor(private readonly firstSlots = 1 << 12) {
    this.slots = new Int32Array(2 * firstSlots);
  }

  /** Words held. */
  get size(): number {
    return this.values.length;
  }

  /** The value of the word text[start, end), whose wordHash is `hash`; undefined when not held. */
  find(text: string, start: number, end: number, hash: number): V | undefined {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const entry = slots[2 * i + 1]!;
      if (entry === 0) return undefined;
      if (slots[2 * i] !== hash) continue;
      const from = this.starts[entry - 1]!;
      if (this.starts[entry]! - from === length && sameCharacters(this.chars, from, text, start, length)) return this.values[entry - 1];
    }
  }

  /** Holds `value` for the word text[start, end) (not held yet), whose wordHash is `hash`. */
  add(text: string, start: number, end: number, hash: number, value: V): void {
    const n = this.values.length;
    this.values.push(value);
    if (n + 2 > this.starts.length) this.starts = grown(this.starts, 2 * (n + 2));
    const from = this.starts[n]!;
    if (from + end - start > this.chars.length) this.chars = grown(this.chars, 2 * (from + end - start));
    for (let i = start; i < end; i++) this.chars[from + i - start] = text.charCodeAt(i);
    this.starts[n + 1] = from + end - start;
    place(this.slots, hash, n + 1);
    if (2 * (n + 1) > this.slots.length >> 1) {
      const slots = new Int32Array(2 * this.slots.length);
      for (let at = 0; at < this.slots.length; at += 2) if (this.slots[at + 1] !== 0) place(slots, this.slots[at]!, this.slots[at + 1]!);
      this.slots = slots;
    }
  }

  /** Forgets every word. */
  clear(): void {
    this.values = [];
    this.starts[0] = 0;
    this.slots = new Int32Array(2 * this.firstSlots);
  }
}

/** Puts word number `entry` (+ 1) in the first free slot from its hash's. */
function place(slots: Int32Array, hash: number, entry: number): void {
  const mask = (slots.length >> 1) - 1;
  let i = hash & mask;
  while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
  slots[2 * i] = hash;
  slots[2 * i + 1] = entry;
}

function grown<A extends Int32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>>(a: A, length: number): A {
  const bigger = a instanceof Int32Array ? new Int32Array(length) : new Uint16Array(length);
  bigger.set(a);
  return bigger as A;
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
