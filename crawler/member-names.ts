// A class's members as the qualified names readers type (issue 14: `String#split`, `Mutex#synchronize`,
// `Process.spawn`, `Vec::push`). API generators write one page per class or module, headed by its kind
// and name (RDoc Darkfish's `<h1>class String`, rustdoc's `<h1>Struct std::vec::Vec`, Javadoc's
// `<h1>Class String`), and mark each member by an id that is a kind prefix and the member's bare name
// (`method-i-split`, `method.push`, `split(java.lang.String)`). The bare name is the commonest word of an
// API ("split", "get", "read"): as a definition of that word it cost Python .867 -> .667 (DESIGN.md), so
// it is never one. Qualified by the page's class, it is a name as specific as Sphinx's full ids:
// `String.split` is defined on String.html alone. Erlang's erl_docgen writes a module's name under its
// "Module" heading (`<div class="REFBODY module-body">ets</div>`) and each function's id as NAME-ARITY
// (`lookup-2`): `ets.lookup`, as `ets:lookup` is read (shared/analysis identifierWhole). Pure functions;
// DefinedNamesCollector applies them.

import { identifierAt } from '../shared/analysis/index.js';

/** The kinds a page about one type names in its heading, before the type's name. */
const SUBJECT = /^\s*(?:class|module|struct|enum|trait|interface|union|record)\s+/iu;

/**
 * The type a heading says the page is about: the name after a kind ("class Net::HTTP": `Net::HTTP`,
 * "Struct std::vec::Vec": `Vec`, "Class HashMap<K,V>": `HashMap`), with nothing after it but
 * a generic's parameters; undefined for any other heading ("Classes and modules", "class String and
 * Symbol", "Module index").
 */
export function subjectOfHeading(text: string): string | undefined {
  // qdoc's `<h1 class="title">QString Class</h1>`: the name first, the kind after, as Doxygen's title.
  const named = KIND_AFTER.exec(text);
  if (named !== null) return named[1];
  const kind = SUBJECT.exec(text);
  if (kind === null) return undefined;
  const rest = text.slice(kind[0].length).trim();
  const found = identifierAt(rest, 0);
  const name = found !== undefined && found.raw !== '' && found.start === 0 ? found.raw.replace(/<.*$/su, '') : /^[\p{L}_][\p{L}\p{N}_]*/u.exec(rest)?.[0];
  // A type's name is written with a capital in every language these generators serve: "Module index"
  // and "Class methods" are titles, not types.
  if (name === undefined || name.includes('#') || !/^\p{Lu}/u.test(name.split(/::|\./u).pop()!)) return undefined;
  const after = rest.slice(name.length).trim();
  if (after !== '' && !after.startsWith('<')) return undefined;
  // Without its module path, which starts in small letters (rustdoc's `std::vec::`, Java's `java.util.`):
  // readers type `Vec::push` and `HashMap.get`, and every form of the full path was an index term for
  // each member (Rust's index 68 -> 85 MB with them). A type's own namespace stays (`Net::HTTP`).
  const parts = name.split(/(::|\.)/u);
  let first = 0;
  while (first < parts.length - 1 && !/^\p{Lu}/u.test(parts[first]!)) first += 2;
  return parts.slice(first).join('');
}

/** A type's name and its kind after it (qdoc: "QString Class", "QtConcurrent Namespace"): a name whose
 * last part starts with a capital, as subjectOfHeading asks of a name after its kind. */
const KIND_AFTER = /^\s*((?:[\p{L}_][\p{L}\p{N}_]*::)*\p{Lu}[\p{L}\p{N}_]*)\s+(?:Class|Struct|Namespace|Interface)\s*$/u;

/**
 * The member a heading declares when it is a C++ declaration, the qualified name before its parameters:
 * qdoc's `<h3 class="fn">QHash::iterator QHash::insert(const Key &key, const T &value)</h3>` is
 * `QHash::insert`, `[static] QString QString::number(long n, int base = 10)` `QString::number`. As
 * memberOfDoxygenName reads a member entry: a `::`-qualified name only, no operator; undefined for a
 * heading without parameters.
 */
export function memberOfDeclarationHeading(text: string): string | undefined {
  const open = text.indexOf('(');
  return open > 0 ? memberOfDoxygenName(text.slice(0, open)) : undefined;
}

/** A member's bare name: a word or a snake_case name, not an operator. */
const MEMBER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/**
 * The member an id marks on a type's page, and the separator readers write between the type and it;
 * undefined for an id that is no member's. The generators' habits:
 * - RDoc Darkfish, `method-i-NAME` / `method-c-NAME` (instance, class) and `attribute-i-NAME`, with
 *   `-XX` hex escapes for what is not a word character (`exist-3F` is `exist?`); read with `.`, which a
 *   typed `String#split` is too (shared/analysis identifierWhole). A predicate's `?`, a bang's `!` and a
 *   writer's `=` are not typed as part of the name's token, so they are dropped.
 * - rustdoc, `method.push`, `tymethod.next`, `structfield.len`, `variant.Some`, `associatedconstant.MAX`,
 *   `associatedtype.Item` (a `-1` after it when a name repeats on the page); read with `::`.
 * - Javadoc, `split(java.lang.String)` (HTML5 ids, 11 on) and `split-java.lang.String-` (8); read with `.`.
 */
export function memberOfId(id: string): { member: string; separator: string } | undefined {
  const darkfish = /^(?:method|attribute)-[ic]-(.+)$/u.exec(id);
  if (darkfish !== null) {
    const name = darkfish[1]!.replace(/-([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/[?!=]$/u, '');
    return MEMBER.test(name) ? { member: name, separator: '.' } : undefined;
  }
  const rustdoc = /^(?:method|tymethod|structfield|variant|associatedconstant|associatedtype)\.([\p{L}_][\p{L}\p{N}_]*)(?:-\d+)?$/u.exec(id);
  if (rustdoc !== null) return { member: rustdoc[1]!, separator: '::' };
  const javadoc = /^([\p{L}_$][\p{L}\p{N}_$]*)(?:\([^()]*\)|-(?:-|(?:[\p{L}\p{N}_$.:]+-)+))$/u.exec(id);
  if (javadoc !== null && MEMBER.test(javadoc[1]!)) return { member: javadoc[1]!, separator: '.' };
  return undefined;
}

/** The qualified name a member of `subject` is (`String` and `split`: `String.split`). */
export const qualifiedMember = (subject: string, m: { member: string; separator: string }): string => `${subject}${m.separator}${m.member}`;

/** Template argument lists, innermost first, until none is left (`std::vector< _Tp, _Alloc >::push_back`:
 * `std::vector::push_back`). */
function withoutTemplateArguments(text: string): string {
  let t = text;
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(/\s*<[^<>]*>/gu, '');
  }
  return t;
}

/** Doxygen's page title: the name first, its kind after it. */
const DOXYGEN_TITLE = /^\s*(.+?)\s+(?:Class|Struct|Union|Namespace)(?:\s+Template)?\s+Reference\s*$/u;

/**
 * The type or namespace a Doxygen page is about, from its title `<div class="title">std::vector< _Tp,
 * _Alloc > Class Template Reference</div>` (the name first, the kind after, not an `<h1>`): the name
 * without its template parameters, `std::vector`; undefined for other titles ("Sorting", "algorithm File
 * Reference", "Class List").
 */
export function subjectOfDoxygenTitle(text: string): string | undefined {
  const m = DOXYGEN_TITLE.exec(text);
  if (m === null) return undefined;
  const name = withoutTemplateArguments(m[1]!).trim();
  return /^[\p{L}_][\p{L}\p{N}_]*(?:::[\p{L}_][\p{L}\p{N}_]*)*$/u.test(name) ? name : undefined;
}

/**
 * The qualified name a Doxygen member entry declares: the last name of `<td class="memname">constexpr void
 * std::vector< _Tp, _Alloc >::push_back </td>` (the parameters are in the next cell), template argument
 * lists dropped: `std::vector::push_back`, `std::sort` on a module page. Only a name qualified with `::`
 * (a bare `push_back` is the commonest word of an API, as memberOfId says); not an alias's target
 * (`using std::__c_file = …` is `std::__c_file`), an operator or a destructor.
 */
export function memberOfDoxygenName(text: string): string | undefined {
  let t = text.replace(/\s+/gu, ' ').trim();
  const alias = /^using\s+([^=]+?)\s*=/u.exec(t);
  if (alias !== null) t = alias[1]!;
  t = withoutTemplateArguments(t).trim();
  const m = /(?:^|[^\p{L}\p{N}_:~])((?:[\p{L}_][\p{L}\p{N}_]*::)+[\p{L}_][\p{L}\p{N}_]*)$/u.exec(t);
  if (m === null) return undefined;
  const name = m[1]!;
  return /(?:^|::)operator$/u.test(name) ? undefined : name;
}

/** An Erlang atom as a module or function is named: a small letter first (`ets`, `gen_server`, `wxFrame`). */
const ATOM = /^[a-z][\p{L}\p{N}_@]*$/u;

/**
 * The module an Erlang reference page is about, from the block erl_docgen writes under its "Module"
 * heading (`<div class="REFBODY module-body">ets</div>`): the text when it is one atom, else undefined.
 * The block is the generator's own mark of a module (a command's, a C library's or an application's
 * page has another heading and no such block), where the `<h1>`s (`<h1 id="ets">ets</h1>`) are a bare
 * word as any page's title may be, and a guide's `<h1 id="Pattern Matching">` too.
 */
export function subjectOfModuleBody(text: string): string | undefined {
  const t = text.trim();
  return ATOM.test(t) ? t : undefined;
}

/**
 * The function or type an erl_docgen id marks on a module's page: `lookup-2` (NAME-ARITY) is `lookup`,
 * `type-tid` is `tid` (a remote type is written `ets:tid()` as a call is `ets:lookup(…)`); undefined for
 * any other id. A callback's `Module:handle_call-3` is a function of the user's module, which `Module`
 * stands for: neither the page's module's nor a module called Module, so it is none.
 */
export function memberOfErlangId(id: string): string | undefined {
  const m = /^(?:type-(.+)|(.+)-\d+)$/u.exec(id);
  const name = m?.[1] ?? m?.[2];
  return name !== undefined && ATOM.test(name) ? name : undefined;
}
