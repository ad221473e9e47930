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
}
