// Numbers for the strings the tokenizer makes (tokens and surface words), for a thread that counts the
// terms of many documents: the index build's analysis workers (indexer/term-wire.ts). The tokenizer
// numbers a word's token and surface word once, when its word cache first meets the word
// (tokenize.ts numberTokens), and hands the numbers to its sink with the strings; a document's terms
// are then counted by number and sent by number without a lookup by string per token. Looked up by
// string, in a table of hundreds of thousands, each token cost a few cache misses (DESIGN.md
// "Counting a document's terms by number").

/** Numbers strings in first-seen order, up to `maxStrings`; a string has its number for the table's
 * whole life, and one met once the table is full never gets one (numberOf is -1 for it, every time),
 * so two numbers >= 0 are equal exactly when their strings are. */
export class TokenNumbers {
  /** The numbered strings: string n is strings[n]. */
  readonly strings: string[] = [];
  private readonly numbers = new Map<string, number>();

  constructor(readonly maxStrings: number) {}

  /** Pairs met (pairNumberOf), open addressing, three numbers a slot: the first token's number + 1 (0:
   * empty), the second's, the pair's. */
  private pairSlots = new Int32Array(3 * 1024);
  private pairs = 0;

  /** The number of `s`, given it on first sight; -1 when the table is full and `s` has none. */
  numberOf(s: string): number {
    let n = this.numbers.get(s);
    if (n === undefined) {
      if (this.strings.length >= this.maxStrings) return -1;
      n = this.strings.length;
      this.numbers.set(s, n);
      this.strings.push(s);
    }
    return n;
  }

  /**
   * The number of the pair token of the tokens numbered `first` and `second` (both >= 0), which
   * `spell()` makes; looked up by the two numbers, the string made and numbered only the first time.
   * Looked up by string, a title's pair was made anew (a concatenation, 13 characters or more a cons
   * string) and cost a probe of the whole table: with SciFact's 77,646 title pairs about 640 ns a pair
   * beside 470 for making it, most of it cache misses, as a title's pairs are rare strings (DESIGN.md
   * "Two batches a thread, batches moved, pairs by number"). -1 when the pair has no number (the
   * table is full).
   */
  pairNumberOf(first: number, second: number, spell: () => string): number {
    const slots = this.pairSlots;
    const mask = slots.length / 3 - 1;
    let i = pairHash(first, second);
    for (;; i++) {
      const at = 3 * (i & mask);
      const key = slots[at]!;
      if (key === 0) break;
      if (key === first + 1 && slots[at + 1] === second) return slots[at + 2]!;
    }
    const n = this.numberOf(spell());
    // A pair without a number is not kept: it is spelled and looked up each time, as any such string.
    if (n < 0) return n;
    const at = 3 * (i & mask);
    slots[at] = first + 1;
    slots[at + 1] = second;
    slots[at + 2] = n;
    if (++this.pairs * 2 > mask + 1) this.growPairs();
    return n;
  }

  /** Twice the slots, every pair placed anew: at most half of them are taken. */
  private growPairs(): void {
    const old = this.pairSlots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / 3 - 1;
    for (let at = 0; at < old.length; at += 3) {
      const key = old[at]!;
      if (key === 0) continue;
      const first = key - 1;
      const second = old[at + 1]!;
      let i = pairHash(first, second);
      while (slots[3 * (i & mask)] !== 0) i++;
      const to = 3 * (i & mask);
      slots[to] = key;
      slots[to + 1] = second;
      slots[to + 2] = old[at + 2]!;
    }
    this.pairSlots = slots;
  }
}

/** Where a pair's probe starts (before the table's mask): its two numbers mixed by multiplication. */
const pairHash = (first: number, second: number): number => (Math.imul(first, 0x9e3779b1) ^ Math.imul(second + 1, 0x85ebca77)) >>> 0;
