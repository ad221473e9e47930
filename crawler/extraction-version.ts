// The version of the rules that read a page into its record (crawler/extract.ts and what it calls:
// sections, definition terms, defined names, parent links). A record keeps the version that read it
// (PageRecord.extractedBy); a recrawl asks a page read by other rules without its validators, so the
// server answers 200 rather than 304 and the page is read again by today's rules. Without it, a rule
// added in a release never reached a stored crawl: an unchanged page answers 304 and keeps its record.
// Raise it when a change to extraction changes what a stored record holds.

/** 1: definition terms as sections (`<dt id>`), a `<br>` a space in a heading, the code share counted
 * on the collapsed text (2026-12-02). 2: no links from inside a `<template>` (2026-12-02). 3: a meta's
 * name trimmed (`" robots "`), no refresh link from a content without a delay, a definition term named
 * by texinfo's empty `<span id>` anchors before it (2026-12-02). 4: a permalink's mark ("¶", "#") is
 * no text of the page, a `<title>` that is a name defines it, a page's sections past the 2,000 kept
 * end in a mark where the first cut began (crawler/field-limits.ts) (2026-12-02). 5: an anchor labelled
 * with its own name marked as one (Vim's `'tabstop'`, `:normal`) defines it (2026-12-02). 6: a term's
 * plain first word defines it when texinfo's index anchor before the term spells it (2026-12-02). 7: a
 * term's plain first word defines it when the term's own id or an anchor inside it is that word alone
 * (Postfix's `<dt><a name="relayhost">relayhost</a>`), not a word called (2026-12-02). 8: h5 and h6
 * headings with an id are sections (entries, as terms are), a paragraph that is one identifier before a
 * block quote defines it (docutils' "name / indented text") (2026-12-02). 9: a heading that is a name
 * and its arguments as placeholders (`vcl.load <configname> [auto|cold]`) defines the name (2026-12-02).
 * 10: nothing from a `<template>` (title, base, canonical, metas), a canonical from the head only and
 * none of two that differ, no text from iframe, noembed or noframes, SVG text, MathML and `<center>`
 * apart from the words around them (2026-12-04). 11: a page that names no charset and is not UTF-8
 * read in the charset detected from its bytes, not as UTF-8 with a U+FFFD for each letter that is not
 * ASCII (crawler/charset.ts); a language tag that names none (`und`, `mul`, `zxx`, `mis`, `qaa`-`qtz`)
 * and a Content-Language that is no language subtag (`english`) give no language (2026-12-06). 12:
 * `<![CDATA[` outside SVG and MathML ends at the next `>` as in a browser, so an unclosed one no
 * longer hides the rest of the page (crawler/html-tokenizer.ts) (2026-12-06). 13: the date a page
 * declares in its metadata (metas, microdata, JSON-LD), and a PDF's CreationDate (crawler/page-date.ts)
 * (2026-12-06). 14: a page's headings, and its section headings, kept up to 150,000 characters each
 * (crawler/field-limits.ts maxHeadingChars) (2026-12-07). 15: no text from a list of other pages marked
 * by its class (related posts, similar topics, post navigation; crawler/extract.ts OTHER_PAGES_CLASS),
 * its links kept (2026-12-07). 16: a shop's up-sells, cross-sells and "customers also bought" read as such
 * lists too (2026-12-07). 17: a `<div>` whose class calls it a heading, right inside an element with an
 * id, opens an entry linked to by that id (RDoc Darkfish's method entries; crawler/sections.ts)
 * (2026-12-07). 18: a page about one type (its first `<h1>` a kind and a name) defines the members its ids
 * mark as the type's qualified names (`String.split`, `Vec::push`; crawler/member-names.ts) (2026-12-07).
 * 19: such a page defines the type's own name too (`HashMap` of "Class HashMap<K,V>"), and an id that
 * says where members are inherited from defines nothing (crawler/defined-names.ts) (2026-12-07). 20:
 * Doxygen's marks: a title "std::vector< _Tp, _Alloc > Class Template Reference" (name first, kind after,
 * in `<div class="title">`) defines `std::vector`, and each `<td class="memname">` its member's qualified
 * name (`std::vector::push_back`, `std::sort`; crawler/member-names.ts) (2026-12-07). 21: code in a
 * `<div class="fragment">` (Doxygen's samples and source listings, no `<pre>`) counts as code in the
 * page's code share (indexer/listing.ts) (2026-12-07). 22: an Erlang module's page (erl_docgen's
 * `<div class="REFBODY module-body">ets</div>`) defines the module and each function and type its
 * NAME-ARITY and `type-NAME` ids mark as `ets.lookup`, `ets.tid`; a name joined by one `:` is an
 * identifier (`erlang:send_after` in a heading), a callback's `Module:handle_call` its function alone
 * (crawler/member-names.ts, defined-names.ts) (2026-12-07). 23: an empty `<span>` or `<i>` between two
 * words separates them (gi-docgen's `Gtk<span class="sep"></span>Window`, drawn by CSS; crawler/extract.ts)
 * (2026-12-08). 24: qdoc's marks: a heading "QString Class" (the name first, the kind after) names the
 * page's type, and a heading that is a C++ declaration (`QHash::iterator QHash::insert(const Key &key, …)`)
 * defines the qualified member before its parameters (crawler/member-names.ts) (2026-12-08). */
export const EXTRACTION_VERSION = 24;
