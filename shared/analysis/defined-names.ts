// The names a page defines (crawler/defined-names.ts) as index terms of their own. A page that defines
// `STATIC_ROOT` or `QuerySet.annotate` is the answer to that name, whatever else it holds: Sphinx's own
// search ranks its object matches above every full-text match, rustdoc searches names apart from text.
// In BM25 the defining page lost to the pages that mention the name often: the definition is one
// heading word among hundreds on a long reference page, and its parts ("static", "root") count again
// in every page about static files. So each defined name is also indexed as a term no text produces,
// DEFINES_MARK + its token (an identifier's whole token, a long option's, or one word as spelled), which
// the searcher scores by presence alone (web/search).
//
// A name of one word is a spelling, not a stem: Erlang's `ets` module is not its `et` application,
// though the stemmer makes one "et" of both, nor is Go's `strings` package its `string` type. So such a
// name is indexed as spelled (definedNameToken of the folded word) and, for the query that spells no
// defined name ("sockets" where the module is `socket`), under its stem with a mark of its own
// (definedStemToken), which the searcher reads only when no page defines the word as typed.

/** Starts a defined-name term: no token of text starts with it (tokens are letters, digits and identifiers). */
export const DEFINES_MARK = '=';

/** Follows DEFINES_MARK in the term of a one-word name's stem (no token starts with it either). */
const STEM_MARK = '=';

/** The term a page defining the name whose token (or, for one word, folded spelling) is `nameToken` is indexed under. */
export const definedNameToken = (nameToken: string): string => DEFINES_MARK + nameToken;

/** The term a page defining a one-word name is also indexed under: the name's stem (its word token). */
export const definedStemToken = (stem: string): string => DEFINES_MARK + STEM_MARK + stem;

export const isDefinedNameToken = (token: string): boolean => token.startsWith(DEFINES_MARK);

/** The token a defined-name term stands for (the term without its marks). */
export const definedNameOf = (token: string): string => token.slice(token.startsWith(DEFINES_MARK + STEM_MARK) ? 2 : DEFINES_MARK.length);

/**
 * The ways a reader names a qualified name: the name and each shorter qualification down to two parts.
 * Generated docs spell the full path ("django.db.models.query.QuerySet.annotate"); readers type the
 * class and member ("QuerySet.annotate"), or a module path ("os.path.join"). One part alone is a word
 * (or an identifier the crawler already keeps on its own), not a qualified name.
 */
export function qualifiedForms(name: string): string[] {
  // `#` and one `:` join a member as `.` does (`Net::HTTP#get`: `HTTP#get`), shared/analysis identifierWhole.
  const parts = name.split(/(\.|::|#|(?<!:):(?!:))/);
  const forms = [name];
  // parts alternates name, separator, name...: drop one leading name and its separator at a time.
  for (let i = 2; i < parts.length - 2; i += 2) forms.push(parts.slice(i).join(''));
  return forms;
}

/**
 * The last part of a qualified name when it is in camel case (`readFileSync` of Node's
 * `fs.readFileSync`, `getLogger` of `logging.getLogger`), which readers type alone; undefined for a
 * plain last part (`join`, `get`, `read`: the commonest words of an API, which as definitions cost
 * Python .867 -> .667) and for a name of one part. Indexed as memberNameToken: folded, `setUp` would
 * define the word "setup" and `typing.DefaultDict` the lowercase `collections.defaultdict`.
 */
export function camelCaseMember(name: string): string | undefined {
  const parts = name.split(/\.|::|#|(?<!:):(?!:)/);
  const last = parts[parts.length - 1]!;
  return parts.length > 1 && CAMEL_CASE.test(last) ? last : undefined;
}

/**
 * A type in a namespace, both capitalised (`Gtk.Window`, `Gio.File`, `Adw.Application`), run together
 * as C names it (`GtkWindow`): GObject introspection's documentation (gi-docgen) titles a class
 * `Gtk.Window`, and C programmers type the C type. Indexed as memberNameToken, met only by a query word
 * written so. Undefined for any other name.
 */
export function namespacedTypeJoined(name: string): string | undefined {
  const parts = NAMESPACED_TYPE.exec(name);
  return parts === null ? undefined : parts[1]! + parts[2]!;
}

const NAMESPACED_TYPE = /^(\p{Lu}[\p{L}\p{N}]*)\.(\p{Lu}[\p{L}\p{N}]*)$/u;

/** The term a page defining a camel-case member (or a name in capitals, isConstantName) is indexed
 * under: the mark and the name as written, capitals kept, so it meets only a query word written with
 * them (no folded token has a capital). */
export const memberNameToken = (member: string): string => DEFINES_MARK + member;

/**
 * A name written in capitals and digits only, three characters or more with two letters (Django's
 * `DEBUG` setting, Zsh's `HISTSIZE` parameter, the shell's `PS1`, CMake's policy `CMP0077`): a setting,
 * a variable, a constant. To the index it is a plain word ("debug"), and as a definition of that word it
 * would outrank every page about debugging, as Python's builtins page did for "open"; so a page defining
 * it is indexed under memberNameToken, met only by a query word typed in capitals as it is written.
 */
export const isConstantName = (word: string): boolean => CONSTANT.test(word);

const CONSTANT = /^(?=(?:\P{Lu}*\p{Lu}){2})\p{Lu}[\p{Lu}\p{N}]{2,}$/u;

/** A word written in camel case, a capital right after a small letter inside it (`readFileSync`,
 * `KeyObject`), as crawler/defined-names.ts reads one. */
export const isCamelCase = (word: string): boolean => CAMEL_CASE.test(word);

const CAMEL_CASE = /^\p{L}[\p{Ll}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*$/u;

/** A long option as written (`--num-callers`), what optionToken is made for. */
export const isLongOption = (text: string): boolean => /^--[\p{L}\p{N}]/u.test(text);

/** The token a long option is indexed under: its words' tokens joined as it joins them
 * ("--num-callers": "--num-caller"), so the page's words and the query's meet through one analysis. */
export const optionToken = (wordTokens: readonly string[]): string => `--${wordTokens.join('-')}`;
