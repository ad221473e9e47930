// Identifiers: `pg_database_size`, `os.path.join`, `HashMap::entry`, `Vec<T>`, `__init__`, a member
// written after its class with `#` (Ruby's and Javadoc's `String#split`), and a function after its module
// with one `:` (Erlang's `ets:lookup`). Words split
// them into their parts ("pg", "database", "size"), which stay indexed so the parts still match; the
// whole name is added as one more token beside them (folded, never stemmed), so a query for the exact
// name scores the page that has it above pages that merely have the parts apart.

import { foldWord } from './fold.js';
import { MAX_WORD_LENGTH } from './words.js';

const PART = '[\\p{L}\\p{N}\\p{M}]+';
// Parts joined by `_`, `.`, `::`, `#` or one `:` before a letter with nothing between, optional leading/trailing underscores (dunders),
// an optional generic argument list without spaces (`Vec<T>`, `Result<T,E>`), bounded so an unclosed `<`
// costs at most that many characters of backtracking, not the rest of the text.
const IDENT = new RegExp(`_*${PART}(?:(?:_+|\\.|::|#|:(?=\\p{L}))${PART})*_*(?:<[\\p{L}\\p{N}\\p{M}_:.,<>]{0,${MAX_WORD_LENGTH}}>)?`, 'uy');
const UNDERSCORE = 95;
const DOT = 46;
const COLON = 58;
const LT = 60;
const HASH = 35;

/** Whether an index token is an identifier's whole token (words never hold these characters). */
export const isIdentifierToken = (token: string): boolean => /[_.:<+#]/.test(token);

/**
 * The names a qualified identifier's whole token ends with, shortest last: `foreignkey.on_delete` ends
 * with `on_delete`, `os.path.join` with `path.join`; a last part that is a plain word (`join`) is the
 * word's own token already. A heading or term that qualifies a name (Sphinx's `ForeignKey.on_delete`,
 * `ModelAdmin.list_display`) names it as a reader types it, alone: used where headings are matched
 * against a query (web/search), not in the index.
 */
export function identifierTails(token: string): string[] {
  const parts = token.split(/(\.|::)/);
  const tails: string[] = [];
  // parts alternates name, separator, name...: drop one leading name and its separator at a time.
  for (let i = 2; i < parts.length; i += 2) {
    const tail = parts.slice(i).join('');
    if (isIdentifierToken(tail)) tails.push(tail);
  }
  return tails;
}

const PLUS = 43;
/** The longest word that may carry a symbol suffix: "notepad++" is a name, a sentence's word is not. */
const MAX_SYMBOL_NAME_LENGTH = 12;

/**
 * The symbol that makes the word ending at `end` of `text` a name of its own, "++" (`C++`, `g++`) or
 * "#" (`C#`, `F#`), or '' when there is none. Words drop the symbols, so "c++ standard" met every "C"
 * of CMake's docs (`C_STANDARD` before `CXX_STANDARD`), as Lucene's standard tokenizer does too; the
 * word with its symbol is added as an identifier's whole token is: scored, never required. Only after
 * ASCII letters not inside a name (`foo_bar++`), and only where no word character or another symbol
 * follows (`a++b`, `x#1`, `c+++`) but for a version after "++" (`C++17` is `c++` and `17`).
 */
export function symbolSuffix(text: string, start: number, end: number): '' | '++' | '#' {
  const c = text.charCodeAt(end);
  if (c !== PLUS && c !== HASH) return '';
  if (end - start > MAX_SYMBOL_NAME_LENGTH || !/^[A-Za-z]+$/.test(text.slice(start, end))) return '';
  const before = text.charCodeAt(start - 1);
  if (before === UNDERSCORE || before === DOT || before === COLON) return '';
  const suffix = c === HASH ? '#' : text.charCodeAt(end + 1) === PLUS ? '++' : '';
  if (suffix === '') return '';
  const after = text.charCodeAt(end + suffix.length);
  // A version after "++" belongs to the name (`C++17`); a letter, a symbol or `_` makes it an expression.
  const digit = after >= 48 && after <= 57;
  return after === PLUS || after === HASH || after === UNDERSCORE || (isWordCode(after) && !(digit && suffix === '++')) ? '' : suffix;
}

/** Whether a word that starts at `start` and ends at `end` of `text` may begin an identifier: the cheap test before the regex. */
export function mayStartIdentifier(text: string, start: number, end: number): boolean {
  const next = text.charCodeAt(end);
  if (next === UNDERSCORE || (start > 0 && text.charCodeAt(start - 1) === UNDERSCORE)) return true;
  // Most dots end a sentence: only one with a word character right after it can join a name.
  const after = text.charCodeAt(end + 1);
  if (next === DOT) return isWordCode(after);
  // `#` before a word joins a member to its class (`String#split`); `C#` alone is a symbol suffix.
  if (next === HASH) return isWordCode(after);
  // One `:` before a letter joins a function to its module (`ets:lookup`); not "Note: x", `10:30`, `http://`.
  return (next === COLON && (after === COLON || isLetterCode(after))) || (next === LT && (isWordCode(after) || after === UNDERSCORE));
}

/** A letter (ASCII), or any non-ASCII code unit (the regex decides). */
const isLetterCode = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;

/** A letter or digit (ASCII), or any non-ASCII code unit (the regex decides). */
const isWordCode = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c > 127;

/**
 * The identifier whose first word starts at `start` of `text`: its raw text and where it begins (before
 * leading underscores) and ends; undefined when the word there is a plain word. A name too long to index
 * comes back with `raw` empty and its end, for the caller to skip: trying again at each of its parts
 * read the rest of the name each time (`ab.ab.ab…` 600,000 characters: 133 s).
 */
export function identifierAt(text: string, start: number): { raw: string; start: number; end: number } | undefined {
  let from = start;
  while (from > 0 && text.charCodeAt(from - 1) === UNDERSCORE) from--;
  // Underscores after a word char belong to an identifier found at that word: not a start here.
  if (from > 0 && from < start && /[\p{L}\p{N}\p{M}]/u.test(text[from - 1]!)) return undefined;
  IDENT.lastIndex = from;
  const m = IDENT.exec(text);
  if (m === null) return undefined;
  let raw = m[0];
  // A generic must close: "a<b" in running text is a comparison, not a type.
  const lt = raw.indexOf('<');
  if (lt >= 0 && (depth(raw.slice(lt)) !== 0 || !raw.endsWith('>'))) raw = raw.slice(0, lt);
  // A trailing dot or underscores alone (end of a sentence, `foo_`) are not part of a name.
  if (!raw.startsWith('_')) raw = raw.replace(/_+$/, '');
  const joined = /[\p{L}\p{N}\p{M}](?:_+|\.|::|#|:(?=\p{L}))[\p{L}\p{N}\p{M}]/u.test(raw) || raw.startsWith('_') || raw.includes('<');
  if (raw.length > MAX_WORD_LENGTH) return { raw: '', start: from, end: from + m[0].length };
  if (!joined || abbreviation(raw)) return undefined;
  return { raw, start: from, end: from + raw.length };
}

/**
 * The whole token of an identifier's raw text: folded, and a member's `#` read as `.`. `String#split`
 * (Ruby's and Javadoc's way to name an instance method) and `String.split` are one name to a reader,
 * and a page about a class defines its members as `Class.member` (crawler/defined-names.ts), so the
 * query `Mutex#synchronize` meets the page that defines it and the pages that write it either way.
 * One `:` (Erlang's `ets:lookup`, a function after its module) is read as `.` too; `::` stays itself.
 */
export const identifierWhole = (raw: string): string => foldWord(raw).replace(/#|(?<!:):(?!:)/gu, '.');

/** Where the member of a name joined by `#` or one `:` begins (`Enumerable#each_with_object`,
 * `file:read_file`: after the mark), or -1 for a name joined otherwise. */
export function memberStart(raw: string): number {
  for (let i = raw.length - 1; i > 0; i--) {
    const c = raw.charCodeAt(i);
    if (c === HASH || (c === COLON && raw.charCodeAt(i - 1) !== COLON && raw.charCodeAt(i + 1) !== COLON)) return i + 1;
  }
  return -1;
}

/** Names joined by dots (or `#`, or one `:`) alone with a one-letter part ("e.g", "i.e", "U.S.", "Ph.D.",
 * "J.R.R.", "x#1", "C:foo", "a[i:j]") or without a letter ("3.12", "1.5") are abbreviations, drive
 * letters, slices and numbers in running text, not identifiers. */
function abbreviation(raw: string): boolean {
  if (/_|::|</.test(raw)) return false;
  const parts = raw.split(/[.#:]/);
  return parts.some((p) => p.length < 2) || !/\p{L}/u.test(raw);
}

function depth(s: string): number {
  let d = 0;
  for (const c of s) {
    if (c === '<') d++;
    else if (c === '>' && --d < 0) return -1;
  }
  return d;
}
