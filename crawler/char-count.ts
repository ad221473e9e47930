// Counts of characters by class, made in place. The plain way, replacing the other characters away and
// taking the length (`s.replace(/[^\p{L}\p{N}]+/gu, '').length`), builds a string per call; extraction
// counts every link's text, every block and every text node this way, and those strings were a sixth of
// a Rust docs page's analysis (`node dist/bench/extract.js`, analyzeBody: 1,580 -> 1,870 pages a CPU-second).
// Each function gives what its plain formula gives (char-count.test.ts holds them to it).

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s/;

/** UTF-16 units of `s` that are letters or digits (\p{L}, \p{N}): `s.replace(/[^\p{L}\p{N}]+/gu, '').length`. */
export function letterCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) n++;
      continue;
    }
    const cp = s.codePointAt(i)!;
    const units = cp > 0xffff ? 2 : 1;
    if (LETTER_OR_DIGIT.test(String.fromCodePoint(cp))) n += units;
    i += units - 1;
  }
  return n;
}

/** UTF-16 units of `s` that are not whitespace (JavaScript's \s, no-break space included): `s.replace(/\s+/g, '').length`. */
export function visibleCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c !== 0x20 && (c < 0x09 || c > 0x0d)) n++;
    } else if (!WHITESPACE.test(s[i]!)) n++;
  }
  return n;
}
