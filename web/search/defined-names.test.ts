// Names pages define (issue 14 item 5), over a small site written to a real store, indexed and
// searched: the defining page first however long it is, by any qualification a reader types; and a
// query word's stems in several languages weighed alike (compile.ts blendLanguageFrequencies).

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { type PageSpec } from '../../test/support/index-fixture.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';
import { DEFAULT_RANK_PARAMS } from './rank.js';

const S = 'http://docs.test';
// Guides run to a few paragraphs, as they do.
const PROSE = 'This guide walks through the steps a project takes, with examples for each case and the reasons behind the defaults. Read it before changing the configuration of a site that others rely on, and test every change on a copy first.';
// A long reference page: many settings, each a heading, one of them STATIC_ROOT.
const SETTINGS = Array.from({ length: 30 }, (_, i) => `SETTING_${i}`);
const reference = {
  url: `${S}/ref/settings`,
  title: 'Settings',
  headings: ['Core settings', 'Static files', ...SETTINGS.map((s) => `${s} default and use`)],
  text: [...SETTINGS.map((s) => `${s} sets the ${s.toLowerCase()} of a project and of its databases, caches and templates.`), 'STATIC_ROOT is the absolute path where collectstatic collects static files.', 'annotate(*args) annotates each object in the QuerySet.', 'DocumentRoot sets the directory.', 'fs.readFileSync(path) returns the contents of the path.', 'os.path.join(path) joins paths.', 'DEBUG turns on debug mode.'].join(' '),
  defines: [...SETTINGS, 'STATIC_ROOT', 'django.db.models.query.QuerySet.annotate', 'DocumentRoot', 'fs.readFileSync', 'os.path.join', 'DEBUG'],
};
const PAGES: PageSpec[] = [
  reference,
  // Guides that say the name and its parts more often, in short pages.
  { url: `${S}/howto/static-files`, title: 'Managing static files', text: `${PROSE} Serve static files from the root: set STATIC_ROOT, run collectstatic, and the static root holds every static file. ${PROSE}` },
  { url: `${S}/howto/deployment`, title: 'Deploying static files', text: `${PROSE} Static files in production: STATIC_ROOT is the root the web server serves static files from. ${PROSE}` },
  { url: `${S}/releases/2.2`, title: 'Release 2.2', headings: ['Security fixes'], text: `${PROSE} A potential SQL injection in QuerySet.annotate() was fixed: annotate a queryset safely. ${PROSE}` },
  // collections defines defaultdict; typing defines typing.DefaultDict and says defaultdict more often.
  { url: `${S}/library/collections`, title: 'Container datatypes', headings: ['defaultdict objects'], text: `${PROSE} class collections.defaultdict(default_factory) returns a new dictionary-like object. A defaultdict calls default_factory for a missing key. ${PROSE}`, defines: ['collections.defaultdict'] },
  { url: `${S}/library/typing`, title: 'Support for type hints', text: `${PROSE} class typing.DefaultDict(collections.defaultdict, MutableMapping) A generic version of defaultdict. ${PROSE}`, defines: ['typing.DefaultDict'] },
  // A short page whose example calls the name more often than the long page that defines it (Node's
  // https.html reads its keys with fs.readFileSync; fs.html defines it among 270 headings).
  { url: `${S}/howto/tls`, title: 'Serving over TLS', text: `${PROSE} const options = { key: fs.readFileSync('key.pem'), cert: fs.readFileSync('cert.pem'), ca: fs.readFileSync('ca.pem') }; ${PROSE}` },
  // A short guide that says "debug" more often than the settings page that defines DEBUG.
  { url: `${S}/howto/views`, title: 'Writing views', text: `${PROSE} To debug a view, turn debug on: debug pages show the debug information. Set DEBUG while you debug. ${PROSE}` },
  { url: `${S}/vhosts`, title: 'Virtual hosts', text: `${PROSE} DocumentRoot names the directory a virtual host serves; set DocumentRoot for each host. ${PROSE}` },
  // A long option: the page whose option list defines it, and release notes that say its words more.
  { url: `${S}/manual-core`, title: 'Using and understanding the core', text: `${PROSE} --num-callers=<number> sets the number of callers in a stack trace. ${PROSE} ${PROSE}`, defines: ['--num-callers'] },
  { url: `${S}/news`, title: 'Release notes', text: `${PROSE} The number of callers shown (--num-callers) may now be larger; num callers and callers again. ${PROSE}` },
  // Vim's options page defines the option 'spell' (a quoted name); its guide says the words more.
  { url: `${S}/vim/options`, title: 'Options', text: `${PROSE} 'spell' boolean (default off): when on, spell checking is done. ${PROSE} ${PROSE}`, defines: ["'spell'"] },
  { url: `${S}/vim/spell`, title: 'Spell checking', text: `${PROSE} Spell checking: how spell checking finds words spelled wrong, and what spell checking suggests. ${PROSE}` },
  // The rest of a site (a name defined once among hundreds of pages is rare): pages that use the parts
  // as words, as real sites do.
  ...Array.from({ length: 300 }, (_, i) => ({ url: `${S}/topics/${i}`, title: `Topic ${i}`, text: `Topic ${i} keeps static answers at the root of a queryset cache and templates.` })),
];

// A site mostly in English with one page translated into French: the French page says the English
// words the query has, but its stems are French ("proxy", where English makes "proxi").
const LANG: PageSpec[] = [
  { url: `${S}/en/mod/proxy`, title: 'Apache module mod_proxy', text: 'The proxy module is a multi-protocol proxy and gateway server. Proxy requests pass through the proxy.', language: 'en' },
  { url: `${S}/fr/mod/proxy`, title: 'Module Apache mod_proxy', text: 'Le module proxy est un serveur mandataire et une passerelle proxy. Les requêtes proxy passent.', language: 'fr' },
  ...Array.from({ length: 12 }, (_, i) => ({ url: `${S}/en/page-${i}`, title: `Page ${i}`, text: `A page about module number ${i}, a proxy of page ${i} and its server.`, language: 'en' })),
];

describe('names pages define, searched', () => {
  const engineOf = fixtureEngine(PAGES);
  const search = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10, explain: true });
  const top = (q: string) => search(q).hits.map((h) => h.url);

  it('puts the page that defines a name first, above short pages that say it and its parts more often', () => {
    expect(top('STATIC_ROOT')[0]).toBe(reference.url);
    expect(top('DocumentRoot')[0]).toBe(reference.url);
  });

  it('finds the page whose option list defines a long option', () => {
    expect(top('--num-callers')[0]).toBe(`${S}/manual-core`);
  });

  it('finds a qualified name by the shorter qualification a reader types', () => {
    expect(top('QuerySet.annotate')[0]).toBe(reference.url);
  });

  it('finds a member by its camel-case name typed alone, but not by a plain last part', () => {
    expect(top('readFileSync')[0]).toBe(reference.url);
    const join = search('join').hits.find((h) => h.url === reference.url);
    expect(join?.explain!.terms.some((t) => t.field === 'defines') ?? false).toBe(false);
  });

  it('finds the page defining a name in capitals when it is typed so, and not for the word in small letters', () => {
    expect(top('DEBUG')[0]).toBe(reference.url);
    expect(top('debug')[0]).toBe(`${S}/howto/views`);
    const lower = search('debug').hits.find((h) => h.url === reference.url);
    expect(lower?.explain!.terms.some((t) => t.field === 'defines') ?? false).toBe(false);
  });

  it('does not take a camel-case member for the lowercase name typed (typing.DefaultDict is not defaultdict)', () => {
    const defines = (q: string, url: string) => search(q).hits.find((h) => h.url === url)?.explain!.terms.some((t) => t.field === 'defines');
    expect(defines('defaultdict', `${S}/library/typing`)).toBe(false);
    expect(defines('DefaultDict', `${S}/library/typing`)).toBe(true);
    expect(top('defaultdict')[0]).toBe(`${S}/library/collections`);
  });

  it('takes a word in small letters for a name when it is the whole query or written as one, not among other words', () => {
    const defines = (q: string) => search(q).hits.find((h) => h.url === `${S}/vim/options`)?.explain!.terms.some((t) => t.field === 'defines') ?? false;
    expect(defines('spell')).toBe(true);
    expect(defines("'spell' checking")).toBe(true);
    expect(defines('spell checking')).toBe(false);
    expect(top('spell checking')[0]).toBe(`${S}/vim/spell`);
  });

  it('shows the definition in "why this result", scored by presence, and never suggests it as a word', () => {
    const hit = search('STATIC_ROOT').hits[0]!;
    const defined = hit.explain!.terms.filter((t) => t.field === 'defines');
    expect(defined).toEqual([expect.objectContaining({ token: 'static_root', tf: 1 })]);
    expect(defined[0]!.contribution).toBeGreaterThan(0);
    expect(engineOf().suggest('=', 10)).toEqual([]);
    expect(engineOf().suggest('static_r', 10).every((s) => !s.startsWith('='))).toBe(true);
  });
});

describe("a query word's stems in several languages", () => {
  // The frequencies alone: the language factor (rank.ts languageFactor) would lower the French page too.
  const engineOf = fixtureEngine(LANG, { rank: { ...DEFAULT_RANK_PARAMS, otherLanguageFactor: 1 } });
  it('weigh alike: the French translation does not outrank the English page for an English query', () => {
    const hits = engineOf().search(parseQuery('proxy module'), { offset: 0, limit: 10, explain: true }).hits;
    expect(hits.map((h) => h.url).slice(0, 2)).toEqual([`${S}/en/mod/proxy`, `${S}/fr/mod/proxy`]);
  });
});

describe("a type's member typed as Class#member, Class.member or Class::member (Ruby, Javadoc, rustdoc)", () => {
  // A class page defines its members as the class's qualified names (crawler/member-names.ts); a short
  // page about another class says the words far more often (Ruby's Shellwords.html for "String#split").
  const methods = Array.from({ length: 40 }, (_, i) => `method_${i}`);
  const pages: PageSpec[] = [
    { url: `${S}/String.html`, title: 'class String', text: `${methods.map((m) => `${m} returns a new string.`).join(' ')} split(pattern) divides str into substrings based on a delimiter.`, defines: ['String', ...methods.map((m) => `String.${m}`), 'String.split'] },
    { url: `${S}/Shellwords.html`, title: 'module Shellwords', text: 'shellsplit(line): split the string as a shell would split a string. Split string, string split; split a string into words.', defines: ['Shellwords', 'Shellwords.shellsplit'] },
    { url: `${S}/Process.html`, title: 'module Process', text: `${PROSE} spawn(env, command) executes the command. ${PROSE}`, defines: ['Process', 'Process.spawn'] },
    { url: `${S}/Open3.html`, title: 'module Open3', text: 'Open3 runs a process like Process.spawn: each process spawn, spawn a process.', defines: ['Open3', 'Open3.popen3'] },
    ...Array.from({ length: 8 }, (_, i) => ({ url: `${S}/filler-${i}`, title: `Filler ${i}`, text: `A page about other things, number ${i}.` })),
  ];
  const engineOf = fixtureEngine(pages);
  const top = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);

  it('finds the class page that defines the member, however the reader joins them', () => {
    expect(top('String#split')[0]).toBe(`${S}/String.html`);
    expect(top('String.split')[0]).toBe(`${S}/String.html`);
    expect(top('Process.spawn')[0]).toBe(`${S}/Process.html`);
  });

  it('leaves the words typed apart to the text: a member is no definition of its bare word', () => {
    expect(top('string split')[0]).toBe(`${S}/Shellwords.html`);
    expect(top('split')[0]).toBe(`${S}/Shellwords.html`);
  });
});

describe('a one-word name is a spelling, not a stem (Erlang: ets is not et; Go: strings is not string)', () => {
  // The stemmer makes "et" of both `et` and `ets`, and "string" of `string` and `strings`. Each page
  // below defines its own name and says the other's more often, as a module's page mentions its sibling.
  const pages: PageSpec[] = [
    { url: `${S}/et.html`, title: 'et', text: `${PROSE} et traces events; et reads tables filled by ets, and ets tables hold what et shows. et et et.`, defines: ['et'] },
    { url: `${S}/ets.html`, title: 'ets', text: `${PROSE} ets is the built-in term storage, a table per process. ${PROSE} ${PROSE}`, defines: ['ets'] },
    { url: `${S}/socket.html`, title: 'socket', text: `${PROSE} socket opens a network connection. ${PROSE} ${PROSE}`, defines: ['socket'] },
    { url: `${S}/network.html`, title: 'Network programming', text: `${PROSE} Sockets: a program opens sockets, reads from sockets and closes sockets; sockets and more sockets.` },
    ...Array.from({ length: 8 }, (_, i) => ({ url: `${S}/filler-${i}`, title: `Filler ${i}`, text: `A page about other things, number ${i}.` })),
  ];
  const engineOf = fixtureEngine(pages);
  const search = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10, explain: true });
  const defines = (q: string, url: string) => search(q).hits.find((h) => h.url === `${S}/${url}`)?.explain!.terms.some((t) => t.field === 'defines') ?? false;

  it('meets only the page defining the name as typed', () => {
    expect(search('ets').hits[0]!.url).toBe(`${S}/ets.html`);
    expect(defines('ets', 'et.html')).toBe(false);
    expect(search('et').hits[0]!.url).toBe(`${S}/et.html`);
    expect(defines('et', 'ets.html')).toBe(false);
  });

  it('meets the page defining a word of the stem when no page defines the word as typed', () => {
    expect(defines('sockets', 'socket.html')).toBe(true);
    expect(search('sockets').hits[0]!.url).toBe(`${S}/socket.html`);
  });
});

describe('a type in a namespace, typed as C names it (gi-docgen: `Gtk.Window` is GtkWindow)', () => {
  const pages: PageSpec[] = [
    { url: `${S}/class.Window.html`, title: 'Gtk.Window', headings: ['Gtk Window'], text: `${PROSE} A GtkWindow is a toplevel window which can contain other widgets. ${PROSE} ${PROSE}`, defines: ['Gtk.Window'] },
    { url: `${S}/signal.Window.keys-changed.html`, title: 'Gtk.Window::keys-changed', text: 'GtkWindow::keys-changed: emitted when the set of accelerators of a GtkWindow changes; the GtkWindow keys.', defines: ['Gtk.Window::keys-changed'] },
    { url: `${S}/os.path.html`, title: 'os.path', text: `${PROSE} os.path joins paths. ${PROSE}`, defines: ['os.path'] },
    ...Array.from({ length: 8 }, (_, i) => ({ url: `${S}/filler-${i}`, title: `Filler ${i}`, text: `A page about other things, number ${i}.` })),
  ];
  const engineOf = fixtureEngine(pages);
  const search = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10, explain: true });
  const defines = (q: string, url: string) => search(q).hits.find((h) => h.url === `${S}/${url}`)?.explain!.terms.some((t) => t.field === 'defines') ?? false;

  it('finds the class page by the C type, and only by the name so written', () => {
    expect(search('GtkWindow').hits[0]!.url).toBe(`${S}/class.Window.html`);
    expect(defines('GtkWindow', 'signal.Window.keys-changed.html')).toBe(false);
    expect(defines('gtkwindow', 'class.Window.html')).toBe(false);
  });

  it('joins no other name: a lower-case namespace is a module path', () => {
    expect(defines('ospath', 'os.path.html')).toBe(false);
  });
});
