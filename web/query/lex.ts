// The query language's surface syntax: raw input becomes a flat list of items (words, phrases, OR,
// operators), with no knowledge of the index. Pure and total: every string lexes, nothing throws.
// The parser (parse.ts) then decides what each item means and what to ignore.

/** The operators with a value; a word like `foo:bar` with another prefix is an ordinary word. */
export type Operator = 'site' | 'intitle' | 'inurl' | 'lang' | 'after' | 'before';

export type Item =
  | {
      type: 'word' | 'phrase';
      /** The text without quotes or operator prefix; for a phrase, whitespace collapsed. */
      text: string;
      negated: boolean;
      operator?: Operator;
      /** A phrase whose closing quote was missing: it ran to the end of the input. */
      unclosed?: boolean;
    }
  | { type: 'or' }
  /** `-` with nothing after it, or an operator with no value (`site:` followed by a space). */
  | { type: 'stray'; text: string };

// Phones and word processors turn " into typographic quotes; all of them open and close a phrase.
const QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e', '\u201f', '\u00ab', '\u00bb', '\uff02', '\u2033']);
// A minus typed on some keyboards or pasted from documents.
const MINUSES = new Set(['-', '\u2212', '\uff0d']);
const OPERATOR = /^(site|intitle|inurl|lang|after|before):/i;
const SPACE = /^\s$/u;

const isSpace = (ch: string) => SPACE.test(ch);

/** Control characters become spaces and lone surrogates U+FFFD, so later stages see clean text. */
export function cleanInput(input: string): string {
  return input
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * Whether a word typed after `minuses` minus signs is a command-line option, searched as a word, not
 * excluded: `--no-pager` (two minuses exclude nothing anyone means to), or one letter or digit after
 * one (`set -e`, `shopt -s nullglob`, `declare -A`: a page without the letter "e" does not exist, so
 * excluding it left nothing). `-go` and longer stay exclusions.
 */
function isOption(minuses: number, word: string): boolean {
  return minuses >= 2 ? word !== '' : minuses === 1 && /^[\p{L}\p{N}]$/u.test(word);
}

/** Splits a cleaned query into items. Works on code points so no character is ever split. */
export function lex(input: string): Item[] {
  const chars = Array.from(input);
  const items: Item[] = [];
  let i = 0;

  const readPhrase = (): { text: string; unclosed: boolean } => {
    i++; // the opening quote
    const start = i;
    while (i < chars.length && !QUOTES.has(chars[i]!)) i++;
    const text = chars.slice(start, i).join('').replace(/\s+/gu, ' ').trim();
    const unclosed = i >= chars.length;
    if (!unclosed) i++; // the closing quote
    return { text, unclosed };
  };

  while (i < chars.length) {
    if (isSpace(chars[i]!)) {
      i++;
      continue;
    }
    let negated = false;
    const minusAt = i;
    while (i < chars.length && MINUSES.has(chars[i]!)) {
      negated = true;
      i++;
    }
    if (negated && (i >= chars.length || isSpace(chars[i]!))) {
      items.push({ type: 'stray', text: '-' });
      continue;
    }
    if (QUOTES.has(chars[i]!)) {
      const { text, unclosed } = readPhrase();
      items.push({ type: 'phrase', text, negated, ...(unclosed ? { unclosed } : {}) });
      continue;
    }
    // A word runs to the next space or quote; a quote right after `op:` starts the operator's phrase.
    const start = i;
    while (i < chars.length && !isSpace(chars[i]!) && !QUOTES.has(chars[i]!)) i++;
    const word = chars.slice(start, i).join('');
    const op = OPERATOR.exec(word);
    if (op) {
      const operator = op[1]!.toLowerCase() as Operator;
      const value = word.slice(op[0].length);
      if (value === '' && i < chars.length && QUOTES.has(chars[i]!)) {
        const { text, unclosed } = readPhrase();
        items.push({ type: 'phrase', text, negated, operator, ...(unclosed ? { unclosed } : {}) });
      } else if (value === '') {
        items.push({ type: 'stray', text: (negated ? '-' : '') + word });
      } else {
        items.push({ type: 'word', text: value, negated, operator });
      }
      continue;
    }
    if (!negated && (word === 'OR' || word === '|')) {
      items.push({ type: 'or' });
      continue;
    }
    if (negated && isOption(i - minusAt - word.length, word)) {
      items.push({ type: 'word', text: chars.slice(minusAt, i).join(''), negated: false });
      continue;
    }
    items.push({ type: 'word', text: word, negated });
  }
  return items;
}
