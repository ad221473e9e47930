import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract.js';
import { nameOfHeading, nameOfTerm, namesOfId } from './defined-names.js';

const defines = (html: string) => extractHtml(html, 'http://example.test/ref.html').defines;

describe('names a page defines', () => {
  it('takes the name a definition term opens with, as each documentation generator writes it', () => {
    const html =
      // Sphinx, PostgreSQL, texinfo, SQLite, DocBook function synopsis in a dt.
      '<dl><dt class="sig" id="os.path.join"><code>os.path.</code><code>join</code>(path, *paths)¶</dt><dd>Join paths.</dd></dl>' +
      '<dl><dt id="GUC-MAX-CONNECTIONS"><span class="term"><code>max_connections</code> (<code>integer</code>)</span></dt><dd>Sets…</dd></dl>' +
      "<dl><dt id='index-PROMPT_005fCOMMAND'><span><code>PROMPT_COMMAND</code><a href='#index-PROMPT_005fCOMMAND'> ¶</a></span></dt><dd>If set…</dd></dl>" +
      '<a name="group_concat"></a><dl><dt><p><b>group_concat(<i>X</i>)<br>group_concat(<i>X</i>,<i>Y</i>)</b></dt><dd>The…</dd></dl>' +
      '<dl><dt>class <code>collections.OrderedDict</code>([items])</dt></dl>';
    expect(defines(html)).toEqual(['os.path.join', 'max_connections', 'PROMPT_COMMAND', 'group_concat', 'collections.OrderedDict']);
  });

  it('takes a paragraph that is one identifier when the indented block documenting it follows (docutils)', () => {
    const html =
      // Varnish's vcl-var.html: `name` then an indented description, which docutils makes a block quote.
      '<p>beresp.ttl</p>\n<blockquote><div><p>Type: DURATION</p><p>The remaining time to live.</p></div></blockquote>' +
      // Not a plain word so followed, not an identifier inside a sentence, not one without the block.
      '<p>Example</p><blockquote><p>set x = 1;</p></blockquote>' +
      '<p>Set beresp.grace here.</p><blockquote><p>Quoted.</p></blockquote>' +
      '<p>beresp.keep</p><p>Not indented.</p><blockquote><p>Later.</p></blockquote>';
    expect(defines(html)).toEqual(['beresp.ttl']);
  });

  it('takes the identifiers an id or an anchor name spells, and nothing from ids of plain words', () => {
    const html =
      '<div id="main"><div id="sidebar-nav"></div>' +
      '<h3 class="title"><a name="mwg-pam_get_item"></a>2.1.4. Getting PAM items</h3>' +
      '<section id="method.unwrap_or"><h4>pub fn unwrap_or(self, default: T) -> T</h4></section>' +
      '<section id="impl-From%3CT%3E-for-Option%3CT%3E"><h3>impl&lt;T&gt; From&lt;T&gt; for Option&lt;T&gt;</h3></section></div>';
    expect(defines(html)).toEqual(['pam_get_item', 'method.unwrap_or', 'unwrap_or']);
    // An id that says where a member is inherited from names what that class defines (Javadoc's
    // LinkedHashMap.html lists HashMap's methods under it, and was HashMap's first result).
    expect(namesOfId('methods-inherited-from-class-java.util.HashMap')).toEqual([]);
    expect(namesOfId('fields.inherited.from.class.java.util.AbstractList')).toEqual([]);
  });

  it("takes a type's members, marked by id, as the type's qualified names, never as bare words", () => {
    // RDoc Darkfish: the h1 names the class; members are `method-i-NAME` / `method-c-NAME` ids.
    const darkfish =
      '<nav><a href="#method-i-split">#split</a></nav><h1 id="class-Net::HTTP" class="class">\n  class Net::HTTP\n</h1>' +
      '<div id="method-c-get" class="method-detail"><div class="method-heading"><span class="method-name">get</span></div></div>' +
      '<div id="method-i-finish" class="method-detail"><span class="method-name">finish</span></div>' +
      '<div id="method-i-started-3F" class="method-detail"><span class="method-name">started?</span></div>' +
      '<div id="method-i-2B" class="method-detail"><span class="method-name">+</span></div>';
    expect(defines(darkfish)).toEqual(['Net::HTTP', 'Net::HTTP.get', 'Net::HTTP.finish', 'Net::HTTP.started']);
    // rustdoc: the h1 links its path; members are `method.NAME`, read with `::`.
    const rustdoc =
      '<h1 class="fqn"><span class="in-band">Struct <a href="../index.html">std</a>::<wbr><a href="index.html">vec</a>::<wbr>' +
      '<a class="struct" href="#">Vec</a></span></h1><details><summary><section id="method.push" class="method"><h4>pub fn push(&amp;mut self, value: T)</h4></section></summary></details>';
    expect(defines(rustdoc)).toContain('Vec::push');
    expect(defines(rustdoc)).not.toContain('push');
    // The type itself, whatever its name is written in (Javadoc's "Class HashMap<K,V>", rustdoc's "Struct
    // std::vec::Vec", Darkfish's "class String"): a subclass's page and the serialized forms' index
    // named HashMap by ids, and its own page did not.
    expect(defines('<h1 title="Class HashMap" class="title">Class HashMap&lt;K,V&gt;</h1><section id="get(java.lang.Object)"><h3>get</h3></section>')).toEqual(['HashMap', 'HashMap.get']);
    expect(defines(rustdoc)?.[0]).toBe('Vec');
    expect(defines('<h1 id="class-String" class="class">class String</h1>')).toEqual(['String']);
    // A page whose first h1 names no type qualifies nothing.
    expect(defines('<h1>Classes and modules</h1><div id="method-i-split"></div><h1>class String</h1><div id="method-i-chomp"></div>')).toBeUndefined();
  });

  it("takes qdoc's class, named before its kind, and each member a declaration heading declares, its types linked", () => {
    const qdoc =
      '<h1 class="title">QDir Class</h1><h2 id="public-functions">Public Functions</h2>' +
      '<h3 class="fn" id="entryList"><a name="entryList"></a><span class="type"><a href="qstringlist.html">QStringList</a></span> QDir::<span class="name">entryList</span>(<span class="type"><a href="qdir.html#Filter-enum">QDir::Filters</a></span> <i>filters</i> = NoFilter) const</h3>' +
      '<h3 class="fn" id="count"><a name="count"></a><span class="type">uint</span> QDir::<span class="name">count</span>() const</h3>' +
      '<h3 class="fn" id="Filter-enum"><a name="Filter-enum"></a>enum QDir::<span class="name">Filter</span></h3>';
    // (`entryList` alone is the camel-case id's, as Apache's `<span id="DocumentRoot">` defines its name.)
    expect(defines(qdoc)).toEqual(['QDir', 'entryList', 'QDir::entryList', 'QDir::count']);
    // A heading that links to another page and declares nothing still names what is defined there.
    expect(defines('<h2><a href="qdir.html">QDir</a> and friends</h2>')).toBeUndefined();
  });

  it("takes an Erlang module page's module (erl_docgen's module-body) and qualifies its functions and types by it", () => {
    const page =
      '<title>Erlang -- ets</title><div class="topbar-title"><h1 id="ets">ets</h1></div>' +
      // The left menu lists other modules' functions without ids; an id before the module is read is no member.
      '<ul><li title="lookup-2"><a href="dets.html#lookup-2">lookup/2</a></li></ul><span id="new-2"></span>' +
      '<center><h1>ets</h1></center><h3 id="module" class="title-link"><div class="title-name">Module</div></h3>' +
      '<div class="REFBODY module-body">ets</div>' +
      '<h4 id="type-tid" class="title-link"><span class="title-name">tid()</span></h4>' +
      '<h4 id="lookup-2" class="bold_code title-link func-head"><span class="title-name">lookup(Table, Key) -&gt; [Object]</span></h4>' +
      '<h4 id="Module:handle_call-3" class="bold_code title-link func-head"><div class="title-name">Module:handle_call(Request, From, State) -&gt; Result</div></h4>';
    const names = defines(page)!;
    expect(names).toEqual(expect.arrayContaining(['ets', 'ets.tid', 'ets.lookup', 'handle_call']));
    // A callback is the user's module's (Module is a variable): not ets's, not a module called Module.
    expect(names.filter((n) => /handle_call/.test(n))).toEqual(['handle_call']);
    expect(names).not.toContain('ets.new');
    expect(names).not.toContain('lookup');
    // A BIF written with its module in its heading (erlang.html's `erlang:send_after(Time, Dest, Msg)`).
    expect(defines('<h4 id="send_after-3"><div>erlang:<span class="title-name">send_after(Time, Dest, Msg)</span></div></h4>')).toContain('erlang:send_after');
  });

  it("takes Doxygen's title (name first, kind after) and each member's qualified name from td.memname", () => {
    const page =
      '<div class="header"><div class="headertitle"><div class="title">std::vector&lt; _Tp, _Alloc &gt; Class Template Reference' +
      '<div class="ingroups"><a class="el" href="a01563.html">Containers</a></div></div></div></div>' +
      '<a id="a069ff981e0a360ca71ab2682cb4472f4"></a><h2 class="memtitle"><span class="permalink"><a href="#a069ff">&#9670;&#160;</a></span>push_back() <span class="overload">[1/2]</span></h2>' +
      '<div class="memitem"><div class="memproto"><table class="memname"><tr><td class="memname">constexpr void std::vector&lt; _Tp, _Alloc &gt;::push_back </td>' +
      '<td>(</td><td class="paramtype">const <a class="el" href="#">value_type</a> &amp;&#160;</td><td class="paramname"><em>__x</em></td><td>)</td></tr></table></div></div>' +
      // An operator, a destructor and an alias define nothing more than the alias's own name.
      '<table class="memname"><tr><td class="memname">bool std::operator&lt; </td></tr></table>' +
      '<table class="memname"><tr><td class="memname">std::vector&lt; _Tp, _Alloc &gt;::~vector </td></tr></table>' +
      '<table class="memname"><tr><td class="memname">using std::__byte_op_t = typedef typename __byte_operand&lt;_IntegerType&gt;::__type</td></tr></table>';
    // (The memtitle heading "push_back() [1/2]" is an identifier heading, read as before.)
    expect(defines(page)).toEqual(['std::vector', 'push_back', 'std::vector::push_back', 'std::__byte_op_t']);
    // A module page: free functions, and a title that names no type.
    const module =
      '<div class="headertitle"><div class="title">Sorting<div class="ingroups"><a href="#">Algorithms</a></div></div></div>' +
      '<table class="memname"><tr><td class="memname">constexpr void std::sort </td></tr></table>' +
      '<table class="memname"><tr><td class="memname">void push_back </td></tr></table>';
    expect(defines(module)).toEqual(['std::sort']);
  });

  it('takes a name marked as one (quoted, or a command after a colon) that an anchor is labelled with, as Vim tags its help', () => {
    const html =
      `<pre>*<a name="'tabstop'"></a><b>'tabstop'</b>* *<a name="'ts'"></a><b>'ts'</b>*\n` +
      '*<a name=":norm"></a><b>:norm</b>* *<a name=":normal"></a><b>:normal</b>*\n' +
      // A plain word labelled so (Vim's builtin functions), a label that differs, a marked name never shown.
      '*<a name="sort()"></a><b>sort()</b>* *<a name="\'wrap\'"></a><b>wrap</b>* <a name="\'list\'"></a></pre><p>Text.</p>';
    expect(defines(html)).toEqual(["'tabstop'", "'ts'", ':norm', ':normal']);
  });

  it("takes the plain word a term opens with when an index anchor right before it spells it (texinfo), not from the term's own id", () => {
    const html =
      '<dl><dd><span id="index-zstyle"></span></dd><dt><span><tt>zstyle</tt> [ <tt>-L</tt> ]</span></dt><dd>Sets styles.</dd>' +
      // Sphinx's glossary: the id is the term's own; an anchor of other words; an anchor with text between.
      '<dt id="term-lambda">lambda</dt><dd>An anonymous function.</dd>' +
      '<span id="index-history_002c-file"></span><dt>zmodload</dt><dd>Loads.</dd>' +
      '<span id="index-bindkey"></span><p>Text.</p><dt>bindkey</dt></dl>';
    expect(defines(html)).toEqual(['zstyle']);
  });

  it("takes the plain word a term opens with when the term's own id or an anchor inside it is that word alone (Postfix's parameters)", () => {
    const html =
      '<dl><DT><b><a name="relayhost">relayhost</a></b> (default: empty)</DT><DD><p>The next-hop destination.</p></DD>' +
      '<dt id="mynetworks">mynetworks (default: see output)</dt><dd>Trusted clients.</dd>' +
      // Sphinx's glossary (an id of more than the word), an anchor of another word, an id that only holds the word.
      '<dt id="term-lambda">lambda</dt><dd>An anonymous function.</dd>' +
      '<dt><a name="other">helo</a></dt><dd>Greeting.</dd>' +
      '<dt><a name="notes-on-myorigin">myorigin</a></dt><dd>Origin.</dd>' +
      // A plain word called (Sphinx's builtins): a signature, no name.
      '<dt class="sig" id="sorted">sorted(iterable, /, *, key=None)</dt><dd>Return a new sorted list.</dd></dl>';
    expect(defines(html)).toEqual(['relayhost', 'mynetworks']);
  });

  it('leaves out plain words, option letters and names after the parameters', () => {
    expect(nameOfTerm('pipefail')).toBeUndefined();
    expect(nameOfTerm('-o option-name')).toBeUndefined();
    expect(nameOfTerm('copy(src, dst_dir)')).toBeUndefined();
    expect(nameOfTerm('when the value of the setting is max_wal_size')).toBeUndefined();
    expect(nameOfTerm('int pam_get_item(pamh, item_type)')).toBe('pam_get_item');
    // A camel-case name called is a signature; a plain word called is not (Python's builtins page).
    expect(nameOfHeading('setTimeout(callback[, delay[, ...args]])#')).toBe('setTimeout');
    expect(nameOfTerm('static readFile(path)')).toBe('readFile');
    expect(nameOfHeading('len(s)')).toBeUndefined();
    expect(nameOfHeading('setTimeout (the global)')).toBeUndefined();
    expect(nameOfHeading('Calling setTimeout(fn)')).toBeUndefined();
    expect(defines('<dl><dt>Glossary term</dt><dd>text with a_name in it</dd></dl>')).toBeUndefined();
  });

  it("reads a span's id (Sphinx's reference targets) and camel-case names (Apache's directives), not layout words", () => {
    const html =
      '<div class="section" id="s-static-root"><span id="s-std-setting-STATIC_ROOT"></span><span id="static-root"></span>' +
      '<h3><code>STATIC_ROOT</code><a class="headerlink" href="#static-root">¶</a></h3></div>' +
      '<div class="directive-section"><h2 id="documentroot"><span id="DocumentRoot">DocumentRoot</span> Directive</h2></div>' +
      '<span id="content"></span><span id="sidebar"></span>';
    expect(defines(html)).toEqual(['STATIC_ROOT', 'DocumentRoot']);
    expect(namesOfId('mainContent')).toEqual(['mainContent']);
    expect(namesOfId('XMLHttpRequest')).toEqual([]);
  });

  it('takes a heading that is a name, alone or before a description, and not one that goes on', () => {
    expect(nameOfHeading('STATIC_ROOT¶')).toBe('STATIC_ROOT');
    expect(nameOfHeading('(5) SQLITE_BUSY')).toBe('SQLITE_BUSY');
    expect(nameOfHeading('fs.readFile(path[, options], callback)#')).toBe('fs.readFile');
    expect(nameOfHeading('os.path — Common pathname manipulations')).toBe('os.path');
    expect(nameOfHeading('pam_get_item - get PAM information')).toBe('pam_get_item');
    expect(nameOfHeading('STATIC_ROOT and STATIC_URL')).toBeUndefined();
    expect(nameOfHeading('Using pg_dump')).toBeUndefined();
    expect(nameOfHeading('3.2. pg_hba.conf File')).toBeUndefined();
    // A command's synopsis: the name, then its arguments as placeholders; not a plain word's.
    expect(nameOfHeading('vcl.load <configname> <filename> [auto|cold|warm]')).toBe('vcl.load');
    expect(nameOfHeading('param.show [-l|-j] [<param>|changed]')).toBe('param.show');
    expect(nameOfHeading('ban <field> <operator> <arg>')).toBeUndefined();
    expect(nameOfHeading('Using vcl.load <configname>')).toBeUndefined();
    expect(defines('<h3>(5) SQLITE_BUSY</h3><h2>Deploying STATIC_ROOT and STATIC_URL</h2>')).toEqual(['SQLITE_BUSY']);
  });

  it('takes a title that is a name, alone or before a description, as a heading that is one', () => {
    // Apache's module page: its h1 puts words before the name, its title does not.
    expect(defines('<html><head><title>mod_cache - Apache HTTP Server Version 2.4</title></head><body><h1>Apache Module mod_cache</h1><p>Caching.</p></body></html>')).toEqual(['mod_cache']);
    expect(defines('<title>std::collections - Rust</title><h1>Module std::collections</h1>')).toEqual(['std::collections']);
    // A title of words, or words before the name, defines nothing; a name the body defines is kept once.
    expect(defines('<title>Using mod_cache - Apache HTTP Server</title><h1>Using mod_cache</h1>')).toBeUndefined();
    expect(defines('<title>Caching Guide - Apache HTTP Server</title><p>Text.</p>')).toBeUndefined();
    expect(defines('<title>pam_get_item - get PAM information</title><h1>pam_get_item - get PAM information</h1>')).toEqual(['pam_get_item']);
    // A drawing's title is no page title.
    expect(defines('<body><svg><title>mod_x</title></svg><p>Text.</p></body>')).toBeUndefined();
  });

  it('takes a name in capitals a term or heading opens with, not one of words in capitals', () => {
    // Zsh's parameters, Django's settings, the shell's prompt variable, CMake's policies.
    expect(defines('<dl><dt><code>HISTSIZE</code> &lt;S&gt;</dt><dd>The maximum number of events.</dd></dl><h3>DEBUG<a class="headerlink" href="#debug">¶</a></h3><dl><dt>PS1</dt></dl><h1>CMP0077</h1>')).toEqual(['HISTSIZE', 'DEBUG', 'PS1', 'CMP0077']);
    expect(nameOfHeading('SEE ALSO')).toBeUndefined();
    expect(nameOfTerm('CREATE TABLE')).toBeUndefined();
    expect(nameOfHeading('DEBUG mode')).toBeUndefined();
    expect(nameOfTerm('Debug')).toBeUndefined();
    expect(nameOfTerm('ID')).toBeUndefined();
  });

  it('takes the long option a term or heading opens with, without its value', () => {
    const html =
      '<dl><dt><a name="opt.num-callers"></a><span class="term"><code class="option">--num-callers=&lt;number&gt; [default: 12] </code></span></dt><dd>…</dd></dl>' +
      '<h3>--inspect[=[host:]port]<a href="#--inspecthostport">#</a></h3>' +
      '<dl><dt><code>-e</code></dt><dt>-- end of options</dt></dl>';
    const names = defines(html)!;
    expect(names).toEqual(expect.arrayContaining(['--num-callers', '--inspect']));
    expect(names.filter((n) => n.startsWith('-'))).toEqual(['--num-callers', '--inspect']);
  });

  it('takes no name from a term or heading that links to another page: that is where it is defined', () => {
    // A table of contents, and Sphinx's heading that is a reference to the setting's own page.
    const html =
      '<dl class="toc"><dt><a href="mc-manual.html">mc_manual</a></dt></dl>' +
      '<h3><a class="reference internal" href="../ref/settings.html#std-setting-ALLOWED_HOSTS"><code>ALLOWED_HOSTS</code></a><a class="headerlink" href="#allowed-hosts">¶</a></h3>' +
      '<h3><code>DEBUG_PROPAGATE</code><a class="headerlink" href="#debug-propagate">¶</a></h3>';
    expect(defines(html)).toEqual(['DEBUG_PROPAGATE']);
  });

  it('decodes texinfo and percent escapes in ids, and keeps a stray % as written', () => {
    expect(namesOfId('index-BASH_005fVERSINFO')).toEqual(['BASH_VERSINFO']);
    expect(namesOfId('pam_face')).toEqual(['pam_face']);
    expect(namesOfId('str.split%')).toEqual([]);
    expect(namesOfId('module-os.path')).toEqual(['os.path']);
  });

  it("keeps a qualified id's last part when it is a camel-case class name, as readers type it", () => {
    expect(namesOfId('django.db.models.ForeignKey')).toEqual(['django.db.models.ForeignKey', 'ForeignKey']);
    expect(namesOfId('java.util.HashMap')).toEqual(['java.util.HashMap', 'HashMap']);
    expect(namesOfId('django.db.models.Field.null')).toEqual(['django.db.models.Field.null']);
    // Two parts are a kind and a name: a re-export lists a name another page defines.
    expect(namesOfId('reexport.VecDeque')).toEqual(['reexport.VecDeque']);
  });

  it('keeps each name once and at most maxNames of them', () => {
    const many = Array.from({ length: 2100 }, (_, i) => `<dt>name_${i}</dt><dt>name_${i}</dt>`).join('');
    const names = defines(`<dl>${many}</dl>`)!;
    expect(names).toHaveLength(2000);
    expect(new Set(names).size).toBe(2000);
  });
});
