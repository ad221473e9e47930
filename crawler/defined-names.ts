// Names a page defines, for extract.ts (issue 14 item 5: "the exact name finds the page that defines it
// first"). Reference pages mark what they define in three ways that survive every generator we met:
// - a definition term, `<dt>`, that opens with the name: Sphinx `<dt id="os.path.join">os.path.join(path,
//   *paths)`, PostgreSQL `<dt id="GUC-MAX-CONNECTIONS"><code>max_connections</code> (integer)`, texinfo
//   (every GNU manual) `<dt><code>PROMPT_COMMAND</code>`, SQLite `<dt><b>group_concat(X)`;
// - a heading that is the name, alone or before a description: Django `<h3>STATIC_ROOT¶`, SQLite
//   `<h3>(5) SQLITE_BUSY`, Python `os.path — Common pathname manipulations`; and so a `<title>`
//   (Apache's "mod_cache - Apache HTTP Server Version 2.4", whose `<h1>` is "Apache Module mod_cache");
// - an `id` (or `<a name>`) spelled as the name: SQLite `<a name="group_concat">`, DocBook (Linux-PAM)
//   `<a name="mwg-pam_get_item">` on the heading of the section that documents pam_get_item, texinfo's
//   index anchors `index-PROMPT_005fCOMMAND` (its escape for `_`), rustdoc `id="method.unwrap_or"`,
//   Sphinx's `<span id="std-setting-STATIC_ROOT">`, Apache's camel-case `<span id="DocumentRoot">`;
// - an anchor labelled with its own name when the name is marked as one: quoted or a command after a
//   colon, as Vim's help tags its options and commands (`*<a name="'tabstop'"></a><b>'tabstop'</b>*`,
//   `:normal`). A plain word labelled so is not enough: Vim's builtin.html labels `sort()`, `copy()`
//   and a thousand more, and then outranked the guides for "sort lines" (Vim success@1 .689 -> .622).
// - a paragraph that is one identifier alone, followed by the block quote docutils makes of the indented
//   text under it (Varnish's vcl-var.html: `<p>beresp.ttl</p><blockquote>Type: DURATION…`).
// A plain word a term opens with is a name when an index anchor right before the term spells it
// (texinfo's `<span id="index-zstyle"></span><dt>zstyle [ -L ]`).
// A long option (`--num-callers`) a term or heading opens with is a name too, and so is a camel-case
// name a `(` follows (Node's `<h3>setTimeout(callback[, delay])`, a signature). A term or heading that
// links to another page names what is defined there (a table of contents), and defines nothing.
// A page about one type (its first `<h1>` a kind and a name: Darkfish's "class String", rustdoc's "Struct
// std::vec::Vec", Javadoc's "Class HashMap<K,V>") defines the type's name and each member an id marks
// as the type's qualified member (`String.split`, `Vec::push`; crawler/member-names.ts), never as the
// bare word. Doxygen writes the name first and the kind after, in `<div class="title">std::vector< _Tp,
// _Alloc > Class Template Reference`, and its member ids are hashes: such a title defines `std::vector`,
// and each `<td class="memname">` its member's `::`-qualified name (`std::vector::push_back`, `std::sort`).
// An Erlang module's page (erl_docgen) names its module in `<div class="REFBODY module-body">ets</div>`:
// it defines the module's name, and each function and type its NAME-ARITY and `type-NAME` ids mark
// after that block as `ets.lookup`, `ets.tid` (`ets:lookup` as typed); a callback (`Module:handle_call`,
// `Module` a variable) is named by its function alone, as before `:` joined names.
// Pages that only mention a name have none of these. Otherwise only identifiers count (shared/analysis
// identifiers.ts: parts joined by `_`, `.` or `::`): a plain word in a `<dt>` is as often a glossary
// entry, an option list's "-e" or a FAQ's question, and an id of plain words ("main", "sidebar") is
// layout. The indexer counts each name as a heading word of the page and as a defined-name term of its
// own (indexer/analyze-doc.ts, shared/analysis/defined-names.ts).

import { identifierAt, isConstantName } from '../shared/analysis/index.js';
import { detached } from './detached.js';
import { memberOfDeclarationHeading, memberOfDoxygenName, memberOfErlangId, memberOfId, qualifiedMember, subjectOfDoxygenTitle, subjectOfHeading, subjectOfModuleBody } from './member-names.js';

/** The elements whose text opens with the name they define: definition terms, and headings
 * (Django's `<h3>STATIC_ROOT</h3>`, SQLite's `<h3>(5) SQLITE_BUSY</h3>`). */
const TERMS = new Set(['dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** Characters of a Doxygen title or member name read: a member's return type and template arguments
 * come before its name (`std::__detail::_Hashtable_alloc< … >::…`). */
const DOXYGEN_CHARS = 600;

/** Anchors kept before a term (texinfo writes one to four index entries there), and inside one; a page
 * of ids without text between them keeps no more. */
const MAX_IDS_BEFORE = 16;

/** Defaults of DefinedNamesOptions. */
export const DEFAULT_DEFINED_NAMES_OPTIONS: Readonly<DefinedNamesOptions> = { maxNames: 2000, termChars: 200 };

export interface DefinedNamesOptions {
  /** Names kept per page, the first ones (a page of 2,000 definitions is an index, not a reference). */
  maxNames: number;
  /** Characters of a `<dt>` read for its name: the name opens it. */
  termChars: number;
}

/** Collects the names a page defines as the parser walks it (extract.ts). */
export class DefinedNamesCollector {
  readonly names: string[] = [];
  private readonly seen = new Set<string>();
  /** The text of the open `<dt>`, up to termChars; undefined outside one. */
  private term: string | undefined;
  /** Whether the open term holds a link to another page. */
  private linked = false;
  /** The name of an anchor whose label (the text that follows) is awaited; undefined when none is. */
  private anchorName: string | undefined;
  /** The ids of the elements opened since the last text (texinfo's empty index anchors before a term). */
  private idsBefore: string[] = [];
  /** The ids that address the open term: its own and the anchors right before it. */
  private termIds: string[] = [];
  /** The ids of the open `<dt>` and of the elements inside it (Postfix's `<dt><b><a name="relayhost">`). */
  private ownIds: string[] = [];
  /** The text of the open `<p>` outside a term, up to termChars; undefined outside one. */
  private para: string | undefined;
  /** The identifier a paragraph just closed was, awaiting the indented block that documents it. */
  private labelled: string | undefined;
  /** The type the page's first `<h1>` names (member-names.ts); null once that heading named none. */
  private subject: string | null | undefined;
  /** Members whose ids came before the first `<h1>` closed, qualified when it does. */
  private members: { member: string; separator: string }[] = [];
  /** The text of the open Doxygen title (`<div class="title">`) or member name (`<td class="memname">`),
   * and the element that closes it; undefined outside one. */
  private doxygen: { text: string; closes: 'div' | 'td'; depth: number } | undefined;
  /** Whether the page's Doxygen title was read (only the first is the page's). */
  private doxygenTitled = false;
  /** The Erlang module the page's module-body block names (member-names.ts); null once that block named none. */
  private erlangModule: string | null | undefined;
  /** The text of the open module-body block, and the divs open inside it; undefined outside one. */
  private moduleBody: { text: string; depth: number } | undefined;
  private readonly options: DefinedNamesOptions;

  constructor(options: Partial<DefinedNamesOptions> = {}) {
    this.options = { ...DEFAULT_DEFINED_NAMES_OPTIONS, ...options };
  }

  onOpen(name: string, attribs: Record<string, string>): void {
    // A paragraph that is one identifier, then the block quote docutils makes of the indented text
    // under it (reStructuredText's "name / indented description", as Varnish's vcl-var writes
    // `<p>beresp.ttl</p><blockquote><p>Type: DURATION…`), defines the name as a term does.
    if (this.labelled !== undefined) {
      if (name === 'blockquote') this.add(this.labelled);
      this.labelled = undefined;
    }
    if (name === 'p' && this.term === undefined) this.para = '';
    if (this.doxygen === undefined && attribs.class !== undefined) {
      if (name === 'td' && attribs.class === 'memname') this.doxygen = { text: '', closes: 'td', depth: 0 };
      else if (name === 'div' && attribs.class === 'title' && !this.doxygenTitled) this.doxygen = { text: '', closes: 'div', depth: 0 };
    } else if (this.doxygen !== undefined && name === this.doxygen.closes) this.doxygen.depth++;
    if (name === 'div') {
      if (this.moduleBody !== undefined) this.moduleBody.depth++;
      else if (this.erlangModule === undefined && attribs.class !== undefined && /(?:^|\s)module-body(?:\s|$)/u.test(attribs.class)) this.moduleBody = { text: '', depth: 0 };
    }
    const id = attribs.id ?? (name === 'a' ? attribs.name : undefined);
    if (id) for (const n of cachedNamesOfId(id)) this.add(n);
    if (id && this.subject !== null) this.onMemberId(id);
    if (id && this.erlangModule) {
      const member = memberOfErlangId(id);
      if (member !== undefined) this.add(`${this.erlangModule}.${member}`);
    }
    // A term or heading after the anchor is read by the rules for terms and headings.
    if (TERMS.has(name)) this.anchorName = undefined;
    else if (name === 'a' && attribs.href === undefined && id !== undefined && isLabel(id)) this.anchorName = id;
    if (TERMS.has(name) && this.term === undefined) {
      this.term = '';
      this.linked = false;
      this.termIds = name === 'dt' ? this.idsBefore : [];
      this.ownIds = name === 'dt' && id ? [id] : [];
      this.idsBefore = [];
    } else if (id && this.term === undefined) {
      if (this.idsBefore.length < MAX_IDS_BEFORE) this.idsBefore.push(id);
    } else if (id && this.ownIds.length < MAX_IDS_BEFORE) this.ownIds.push(id);
    // A term that links to another page names what is defined there: a table of contents' entry, or
    // Sphinx's heading that is a reference to the setting's own page.
    if (name === 'a' && this.term !== undefined && attribs.href !== undefined && !attribs.href.startsWith('#')) this.linked = true;
  }

  onText(data: string): void {
    if (this.labelled !== undefined && data.trim() !== '') this.labelled = undefined;
    if (this.para !== undefined && this.para.length < this.options.termChars) this.para += data;
    // Only the title's own text: the groups the page is in follow it in a div inside (`<div class="ingroups">`).
    if (this.doxygen !== undefined && this.doxygen.depth === 0 && this.doxygen.text.length < DOXYGEN_CHARS) this.doxygen.text += data;
    if (this.moduleBody !== undefined && this.moduleBody.text.length < this.options.termChars) this.moduleBody.text += data;
    if (this.idsBefore.length > 0 && this.term === undefined && data.trim() !== '') this.idsBefore = [];
    if (this.anchorName !== undefined) {
      const label = data.trim();
      if (label !== '') {
        if (label === this.anchorName) this.add(label);
        this.anchorName = undefined;
      }
    }
    if (this.term !== undefined && this.term.length < this.options.termChars) this.term += data;
  }

  onClose(name: string): void {
    if (this.doxygen !== undefined && name === this.doxygen.closes) {
      if (this.doxygen.depth > 0) this.doxygen.depth--;
      else this.onDoxygen(this.doxygen);
    }
    if (name === 'div' && this.moduleBody !== undefined) {
      if (this.moduleBody.depth > 0) this.moduleBody.depth--;
      else this.onModuleBody(this.moduleBody.text);
    }
    if (name === 'p' && this.para !== undefined) {
      this.labelled = identifierAlone(this.para);
      this.para = undefined;
    }
    if (!TERMS.has(name) || this.term === undefined) return;
    const text = this.term.slice(0, this.options.termChars);
    if (name === 'h1' && this.subject === undefined) this.onSubject(subjectOfHeading(text));
    // A declaration's types link to their pages (qdoc's `<a href="qstringlist.html">QStringList</a>
    // QDir::entryList(…)`); the member it declares is still its own.
    const n = this.linked ? (name === 'dt' ? undefined : memberOfDeclarationHeading(text)) : name === 'dt' ? (nameOfTerm(text) ?? wordAddressed(text, this.termIds) ?? wordSelfNamed(text, this.ownIds)) : (nameOfHeading(text) ?? memberOfDeclarationHeading(text));
    this.term = undefined;
    this.termIds = [];
    this.ownIds = [];
    if (n !== undefined) this.add(n);
  }

  /**
   * The page's `<title>`: a title that is a name, alone or before a description ("mod_cache - Apache
   * HTTP Server Version 2.4", "std::collections - Rust"), names what the page is about, as a heading that
   * is a name does. Apache's module pages open with "Apache Module mod_cache" and defined nothing, so
   * every page with a heading "mod_cache (changed)" or an id "comp-mod_ssl" outranked the module's
   * own page for its name.
   */
  onTitle(title: string): void {
    const n = nameOfHeading(title);
    if (n !== undefined) this.add(n);
  }

  /** An id that marks a member, qualified by the page's type when that is known, kept until it is. */
  private onMemberId(id: string): void {
    const m = memberOfId(id);
    if (m === undefined) return;
    if (this.subject === undefined) {
      if (this.members.length < this.options.maxNames) this.members.push(m);
    } else if (this.subject !== null) this.add(qualifiedMember(this.subject, m));
  }

  private onSubject(subject: string | undefined): void {
    this.subject = subject ?? null;
    // The type itself, first: its page is the answer to its name. Javadoc's "Class HashMap<K,V>" defined
    // nothing, while a subclass's "inherited from" ids and the serialized forms' index named HashMap.
    if (subject !== undefined) {
      this.add(subject);
      for (const m of this.members) this.add(qualifiedMember(subject, m));
    }
    this.members = [];
  }

  /**
   * Doxygen's marks: the title names the page's type or namespace, name first and kind after ("std::vector<
   * _Tp, _Alloc > Class Template Reference"), and each member entry's `<td class="memname">` its
   * qualified name (`std::vector::push_back`, `std::sort`); member-names.ts. Its ids are hashes.
   */
  private onDoxygen(open: { text: string; closes: 'div' | 'td'; depth: number }): void {
    this.doxygen = undefined;
    const text = open.text.slice(0, DOXYGEN_CHARS);
    if (open.closes === 'td') {
      const member = memberOfDoxygenName(text);
      if (member !== undefined) this.add(member);
      return;
    }
    this.doxygenTitled = true;
    const subject = subjectOfDoxygenTitle(text);
    if (subject === undefined) return;
    // An identifier only (`std::vector`; "std Namespace Reference" defines nothing): the plain last part as a
    // definition of its word ("vector", "map", "function") lost more than it won (DESIGN.md).
    if (subject.includes('::')) this.add(subject);
  }

  /** The module an Erlang page's module-body block names: the module itself first, as a type's page
   * defines its type (its `<h1>` "ets" is a plain word, no name); its members' ids are read from here on. */
  private onModuleBody(text: string): void {
    this.moduleBody = undefined;
    this.erlangModule = subjectOfModuleBody(text) ?? null;
    if (this.erlangModule !== null) this.add(this.erlangModule);
  }

  private add(name: string): void {
    if (this.names.length >= this.options.maxNames || this.seen.has(name)) return;
    this.seen.add(name);
    this.names.push(name);
  }
}

/** The plain word a term opens with when an anchor right before the term spells it as one of its id's
 * parts: texinfo's index entry, `<span id="index-zstyle"></span><dt>zstyle [ -L ]`, says the manual's
 * index sends the reader here for the word. Not the term's own id: Sphinx's glossary writes
 * `<dt id="term-lambda">lambda`, and glossary.html then outranked the reference for "lambda",
 * "metaclass" and "with statement" (Python success@1 .886 -> .848). */
function wordAddressed(text: string, ids: readonly string[]): string | undefined {
  if (ids.length === 0) return undefined;
  const word = /^\s*([\p{L}_][\p{L}\p{N}_]*)(?![\p{L}\p{N}_.:])/u.exec(text)?.[1];
  if (word === undefined) return undefined;
  return ids.some((id) => id.split(/[-\s]+/).includes(word)) ? word : undefined;
}

/** The plain word a term opens with when the term's own id, or an anchor inside it, is that word and
 * nothing else: Postfix's postconf.5.html writes each parameter as `<dt><b><a name="relayhost">relayhost</a>
 * </b> (default: empty)</dt>`, and its one-word parameters (relayhost, mynetworks, myhostname) defined
 * nothing, so postconf.5.html ranked 8th for "relayhost" below the guides that set it. An id that is
 * the word alone names the term; a glossary's id says what it is besides (Sphinx's `term-lambda`), and a
 * part of an id is not enough (texinfo's `index-` anchors are read before the term, wordAddressed). Not
 * a word called (Sphinx's `<dt id="sorted">sorted(iterable)`): a plain word called is no name (above;
 * with it, functions.html won "sorting", Python success@1 .886 -> .876). */
function wordSelfNamed(text: string, ids: readonly string[]): string | undefined {
  if (ids.length === 0) return undefined;
  const word = /^\s*([\p{L}_][\p{L}\p{N}_]*)(?![\p{L}\p{N}_.:(])/u.exec(text)?.[1];
  return word !== undefined && ids.includes(word) ? word : undefined;
}

/** The identifier a text is, with nothing else but spaces around it (`beresp.ttl`); undefined for any
 * other text, a plain word included ("Example", "Note"). */
function identifierAlone(text: string): string | undefined {
  const t = text.trim();
  const found = t === '' ? undefined : identifierAt(t, 0);
  return found !== undefined && found.raw !== '' && found.start === 0 && found.end === t.length ? found.raw : undefined;
}

/** Whether an anchor's name is a name marked as one: a word quoted ('tabstop') or a command (:normal). */
function isLabel(name: string): boolean {
  return MARKED_NAME.test(name);
}

const MARKED_NAME = /^(?:'\p{L}[\p{L}\p{N}_-]{0,58}'|:\p{L}[\p{L}\p{N}_-]{0,58})$/u;

/**
 * The name a definition term opens with: its first identifier before any `(` (what follows is a
 * signature's parameters), or a camel-case word the `(` follows, after at most two plain words ("class
 * collections.OrderedDict", "int pam_get_item(", "setTimeout("); undefined when there is none.
 */
export function nameOfTerm(text: string): string | undefined {
  const option = optionAtStart(text);
  if (option !== undefined) return option;
  const paren = text.indexOf('(');
  const head = paren >= 0 ? text.slice(0, paren) : text;
  const words = /[\p{L}\p{N}_]+/gu;
  let plain = 0;
  for (let m = words.exec(head); m !== null; m = words.exec(head)) {
    const found = identifierAt(head, m.index);
    if (found !== undefined && found.raw !== '') {
      const called = calledThroughVariable(found.raw);
      if (called === found.raw || identifierAt(called, 0)?.raw === called) return called;
      words.lastIndex = found.end;
      continue;
    }
    if (found !== undefined) words.lastIndex = found.end;
    // A name in capitals opening the term or heading (Zsh's `<dt>HISTSIZE <S>`, Django's `<h3>DEBUG`):
    // a setting or a variable, searched as written only (shared/analysis isConstantName).
    // Not the first of words in capitals ("SEE ALSO", "CREATE TABLE"): a title, not a name.
    if (plain === 0 && (found === undefined || found.raw === '') && isConstantName(m[0]) && !/^\s+\p{Lu}[\p{Lu}\p{N}]/u.test(head.slice(m.index + m[0].length))) return m[0];
    // A camel-case name called (Node's `setTimeout(callback[, delay])`, a class's `readFile(path)`)
    // is a signature. A plain word called is not: Python's builtins page then defined "open",
    // "sorted" and "round" and outranked every guide that explains them (success@1 .886 -> .686).
    if (m.index + m[0].length === paren && CAMEL_CASE.test(m[0])) return m[0];
    if (++plain > 2) return undefined;
  }
  return undefined;
}

/**
 * A name called through a variable before one `:`, as Erlang writes a callback (`Module:handle_call`,
 * `Module` standing for the user's module, a variable as any capitalised Erlang name is): the function
 * alone, `handle_call`, as the page defined it before `:` joined names (shared/analysis identifiers.ts);
 * `Module.handle_call` would be defined on every behaviour's page, and `gen_server.handle_call` is no
 * function of gen_server. Any other name comes back as it is (`ets:lookup`, `HashMap::entry`).
 */
function calledThroughVariable(name: string): string {
  const m = /^\p{Lu}[\p{L}\p{N}_]*:(?!:)/u.exec(name);
  return m === null ? name : name.slice(m[0].length);
}

/** A name written in camel case, a capital inside it after a small letter: Apache's directives
 * (`<span id="DocumentRoot">`), class names (`OrderedDict`). Layout ids spelled so ("mainContent") are
 * words nobody searches for, so they cost nothing. */
const CAMEL_CASE = /^\p{L}[\p{Ll}\p{N}]*\p{Ll}\p{Lu}[\p{L}\p{N}]*$/u;

/** A long option a term or heading opens with (Valgrind's `<dt>--num-callers=<number> [default: 12]`,
 * Node's `<h3>--inspect[=[host:]port]`), without its value; one letter after one dash is no name. */
function optionAtStart(text: string): string | undefined {
  const m = /^\s*(--[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*)(?![\p{L}\p{N}_.])/u.exec(text);
  return m?.[1];
}

/**
 * The name a heading is, when it is one (Django's "STATIC_ROOT", SQLite's "(5) SQLITE_BUSY", Node's
 * "fs.readFile(path[, options], callback)"): an identifier with nothing but numbers and marks around it
 * before any `(`. A heading that goes on ("STATIC_ROOT and STATIC_URL", on a checklist) is about the
 * name, not where it is defined.
 */
export function nameOfHeading(text: string): string | undefined {
  const option = optionAtStart(text);
  if (option !== undefined) return option;
  const from = text.search(/\p{L}/u);
  if (from < 0) return undefined;
  const paren = text.indexOf('(', from);
  const head = text.slice(0, paren >= 0 ? paren : undefined);
  const name = nameOfTerm(paren >= 0 ? text.slice(from, paren + 1) : head.slice(from));
  if (name === undefined) return undefined;
  const at = head.indexOf(name, from);
  // What follows may be a description after a dash ("os.path — Common pathname manipulations").
  const after = head.slice(at + name.length).split(/\s[—–:-]\s|^[—–:]\s/u)[0]!;
  // Or a command's synopsis: its arguments as placeholders (Varnish's `<h5>vcl.load <configname>
  // <filename> [auto|cold|warm]`), which a heading about the name never opens with.
  if (/^\s+[<[]/u.test(after) && !/\p{L}/u.test(head.slice(0, at))) return name;
  return /\p{L}/u.test(head.slice(0, at) + after) ? undefined : name;
}

/** How many ids' names a parse thread remembers (cachedNamesOfId); past it, it starts again. */
const ID_CACHE_ENTRIES = 10_000;
const idNames = new Map<string, readonly string[]>();

/**
 * namesOfId, remembered per thread: a site's template repeats its ids on every page ("main-content",
 * "settings-menu": 95% of the ids on 3,000 Rust docs pages were seen before), and reading one again
 * (its escapes, its parts, two Unicode expressions a part) was most of what this collector cost.
 */
function cachedNamesOfId(id: string): readonly string[] {
  let names = idNames.get(id);
  if (names === undefined) {
    if (idNames.size >= ID_CACHE_ENTRIES) idNames.clear();
    // Detached: the id and the names cut from it are slices of the page's HTML, which they would keep.
    names = namesOfId(id).map(detached);
    idNames.set(detached(id), names);
  }
  return names;
}

/**
 * The names an `id` spells: its parts between `-` (ids join words with it: "mwg-pam_get_item"),
 * each an identifier as a whole or a camel-case name, and a dotted one's last part when that is an
 * identifier or a camel-case name too ("method.unwrap_or": unwrap_or; "django.db.models.ForeignKey":
 * ForeignKey, but not "reexport.VecDeque"; "module-os.path" keeps no "path", a plain word); none from an
 * id that says where members are inherited from (Javadoc's "methods-inherited-from-class-java.util.HashMap"). Texinfo's `_00XX` escapes and percent-escapes are decoded first; parts holding a generic
 * (rustdoc's "impl-From%3CT%3E-for-Option%3CT%3E") name implementations, not definitions.
 */
export function namesOfId(id: string): string[] {
  let text = id.replace(/_(00[0-7][0-9a-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  if (text.includes('%')) {
    try {
      text = decodeURIComponent(text);
    } catch {
      // A stray % is text: the id stays as written.
    }
  }
  const names: string[] = [];
  const parts = text.split(/[-\s]+/);
  // Where members are inherited from (Javadoc's `methods-inherited-from-class-java.util.HashMap` on
  // LinkedHashMap.html): the names another page defines.
  if (parts.includes('inherited') || /(?:^|\.)inherited\.from\./.test(text)) return names;
  for (const part of parts) {
    if (part === '' || part.includes('<')) continue;
    if (CAMEL_CASE.test(part)) {
      names.push(part);
      continue;
    }
    const whole = identifierAt(part, 0);
    if (whole === undefined || whole.raw !== part) continue;
    const called = calledThroughVariable(part);
    if (called !== part) {
      if (identifierAt(called, 0)?.raw === called) names.push(called);
      continue;
    }
    names.push(part);
    // Its last part too, when that is a name of its own: an identifier, or a class in camel case at
    // the end of a package path (Sphinx's `django.db.models.ForeignKey`, Javadoc's `java.util.HashMap`),
    // which readers type alone. Two parts are often a kind and a name, and not every kind defines:
    // rustdoc's `reexport.VecDeque` only lists what another page defines.
    const last = part.slice(part.lastIndexOf('.') + 1);
    const packaged = part.split('.').length >= 3 && CAMEL_CASE.test(last);
    if (last !== part && (identifierAt(last, 0)?.raw === last || packaged)) names.push(last);
  }
  return names;
}
