// Identifiers and accents over a small site written to a real store, indexed and searched (issue 14
// items 5 and 7): queries go through the gateway's parser, as a user types them.

import { describe, expect, it } from 'vitest';
import { parseQuery } from '../query/index.js';
import { type PageSpec } from '../../test/support/index-fixture.js';
import { fixtureEngine } from '../../test/support/fixture-engine.js';

const S = 'http://docs.test';
const PAGES: PageSpec[] = [
  // The page that defines the function, and a page that has its parts apart, more often and in its title.
  { url: `${S}/functions-admin`, title: 'System administration functions', text: 'pg_database_size(name) computes the total disk space used by the named database.' },
  { url: `${S}/disk-usage`, title: 'Database size on disk', text: 'The size of a database grows. Check the database size with pg tools; size matters, pg users watch database size.' },
  { url: `${S}/os-path`, title: 'Common pathname manipulations', text: 'os.path.join(path, *paths) joins one or more path segments intelligently.' },
  { url: `${S}/tutorial`, title: 'Join the tutorial', text: 'Join us: the os tutorial shows a path through the os. Join the path, the os path, join again.' },
  { url: `${S}/runtime-config`, title: 'Connections and authentication', text: 'max_connections determines the maximum number of concurrent connections. Clients are listed in pg_hba.conf.' },
  { url: `${S}/maxima`, title: 'Maxima', text: 'The max of a list, max connected components, max con artists.' },
  // On a real site the parts are common words: a few pages that say them.
  { url: `${S}/backup`, title: 'Backup', text: 'Back up the database with pg tools: the size of the dump, the path to the os directory, join the logs.' },
  { url: `${S}/restore`, title: 'Restore', text: 'Restore a database from a dump of any size; pg and os path rules join here.' },
  { url: `${S}/monitoring`, title: 'Monitoring', text: 'Watch the database size and pg statistics; the os path and join counters.' },
  // Completion in context: "free" is the more frequent word, "freeze" the one pages about vacuum say.
  { url: `${S}/routine-vacuuming`, title: 'Routine vacuuming', text: 'VACUUM FREEZE marks rows frozen; vacuum to freeze old transaction ids.' },
  { url: `${S}/free-1`, title: 'Free space', text: 'free memory and free disk' },
  { url: `${S}/free-2`, title: 'Free software', text: 'free as in freedom' },
  { url: `${S}/free-3`, title: 'Free lunch', text: 'there is no free lunch' },
  // Accents: a French page, an English one, a German page (no German analyzer) and one without the accent.
  { url: `${S}/fr/serveur`, title: 'Le serveur', text: 'La base est configurée pour le serveur de production.', language: 'fr' },
  { url: `${S}/en/server`, title: 'The server', text: 'The database is configured for the production server.', language: 'en' },
  { url: `${S}/de/a`, title: 'Adresse', text: 'Die Straße ist lang und breit.', language: 'de' },
  { url: `${S}/de/b`, title: 'Adresse', text: 'Die Strasse ist lang und breit.', language: 'de' },
  // Other accents on the same letters: Turkish capitals lower-cased without Turkish rules ("Işık" ->
  // "işık"), the two Vietnamese placements of a tone mark, the two French spellings of one word.
  { url: `${S}/tr/hava`, title: 'Hava', text: 'Işık ve rüzgâr. DİYARBAKIR', language: 'tr' },
  { url: `${S}/vi/hoa`, title: 'Hoa', text: 'Hoà bình', language: 'vi' },
  { url: `${S}/fr/agenda`, title: 'Agenda', text: 'Un évènement important.', language: 'fr' },
  // Stem splits: Porter makes "alias" "alia" but "aliases" "alias".
  { url: `${S}/type-aliases`, title: 'Type aliases', text: 'Aliases give an existing type a new name; they are declared with the type keyword.' },
  { url: `${S}/shell`, title: 'Shell', text: 'An alias is a shorthand the shell expands.' },
  { url: `${S}/houses`, title: 'Houses', text: 'Houses and a house.' },
  // Defined names: the reference page that defines pam_get_item (a dt or an anchor named so), and a
  // guide that mentions it more often, beside more of its parts.
  { url: `${S}/mwg-item`, title: 'Getting and setting items', text: 'int pam_get_item(pamh, item_type, item); the function gets an item.', defines: ['pam_get_item'] },
  { url: `${S}/adg-identity`, title: 'The identity of the user', text: 'Call pam_get_item to get the user item; pam_get_item gets the item the pam stack set, and pam_get_item again.' },
  // An English reference page whose sections name functions: "fs" is "f" to the French stemmer, and
  // the first section says F_OK (the parts "f" and "ok") beside a mention of fs.readFile.
  fsPage(),
  // A camel-case name, as its heading writes it.
  {
    url: `${S}/timers`,
    title: 'Timers',
    text: 'Timers run later. setTimeout(callback[, delay]) schedules a callback once. Call setTimeout with a delay.',
    sections: [
      { id: 'timers', heading: 'Timers', start: 0 },
      { id: 'settimeout', heading: 'setTimeout(callback[, delay])', start: 'Timers run later. '.length },
    ],
  },
];

function fsPage(): PageSpec {
  const parts: [id: string, heading: string, text: string][] = [
    ['top', 'File system', 'The node:fs module enables interacting with the file system.'],
    ['fsaccess', 'fs.access(path[, mode], callback)', 'Tests permissions with fs.constants.F_OK. Calling it before fs.readFile() is not recommended.'],
    ['fsreadfile', 'fs.readFile(path[, options], callback)', 'Asynchronously reads the entire contents of a file.'],
  ];
  let text = '';
  const sections = parts.map(([id, heading, body]) => {
    const start = text.length;
    text += `${heading} ${body} `;
    return { id, heading, start };
  });
  return { url: `${S}/fs`, title: 'File system', text, sections, language: 'en' };
}

describe('identifiers and accents, indexed and searched', () => {
  const engineOf = fixtureEngine(PAGES);
  const top = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);

  it('puts the page that defines a name above a page that only mentions it, more often', () => {
    expect(top('pam_get_item').slice(0, 2)).toEqual([`${S}/mwg-item`, `${S}/adg-identity`]);
  });

  it('an identifier finds the page that has it whole before pages with its parts apart, and its parts still find it', () => {
    expect(top('pg_database_size').slice(0, 2)).toEqual([`${S}/functions-admin`, `${S}/disk-usage`]);
    expect(top('os.path.join').slice(0, 2)).toEqual([`${S}/os-path`, `${S}/tutorial`]);
    expect(top('database size')).toContain(`${S}/functions-admin`);
    expect(top('max connections')).toContain(`${S}/runtime-config`);
  });

  it('a singular the stemmer parts from its plural finds the plural, the exact form first', () => {
    // The page says only "aliases": without the split, "type alias" matched no page in full.
    expect(engineOf().search(parseQuery('type alias'), { offset: 0, limit: 10 }).total).toBe(1);
    expect(top('type alias')[0]).toBe(`${S}/type-aliases`);
    expect(top('intitle:alias')).toEqual([`${S}/type-aliases`]);
    expect(top('aliases')).toEqual([`${S}/type-aliases`, `${S}/shell`]);
    expect(top('alias')[0]).toBe(`${S}/shell`);
    expect(top('houses')).toEqual([`${S}/houses`]);
  });

  it('a result links to the section the identifier heads, whatever other languages stem its parts to', () => {
    const hit = engineOf().search(parseQuery('fs.readFile'), { offset: 0, limit: 10 }).hits[0];
    expect(hit?.url).toBe(`${S}/fs`);
    expect(hit?.section?.id).toBe('fsreadfile');
    // Nor is the other language's stem a word of the English page's snippet.
    const access = engineOf().search(parseQuery('fs permissions'), { offset: 0, limit: 10 }).hits.find((h) => h.url === `${S}/fs`);
    const marked = access?.highlights.map(([a, b]) => access.snippet.slice(a, b).toLowerCase());
    expect(marked).toContain('permissions');
    expect(marked).not.toContain('f');
  });

  it('autocomplete completes identifiers', () => {
    expect(engineOf().suggest('max_con', 5)).toContain('max_connections');
    expect(engineOf().suggest('pg_hb', 5)).toContain('pg_hba.conf');
  });

  it("completions and corrections show a name as its pages spell it, plain words folded", () => {
    expect(engineOf().suggest('settim', 5)).toEqual(['setTimeout']);
    expect(engineOf().suggest('fs.readf', 5)).toEqual(['fs.readFile']);
    expect(engineOf().suggest('sched', 5)).toEqual(['schedules']);
    expect(engineOf().search(parseQuery('settimout'), { offset: 0, limit: 10 }).didYouMean?.query).toBe('setTimeout');
  });

  it('autocomplete completes the last word in the context of the words before it', () => {
    expect(engineOf().suggest('fr', 1)).toEqual(['free']);
    expect(engineOf().suggest('vacuum fr', 1)).toEqual(['vacuum freeze']);
    expect(engineOf().suggest('fr', 1, 'vacuum ')).toEqual(['freeze']);
  });

  it('a word typed without accents finds the accented word, on a French page and a page of no analyzer', () => {
    expect(top('configuree')).toEqual([`${S}/fr/serveur`]);
    expect(top('strasse')).toContain(`${S}/de/a`);
    // Typed with its accent, the French word still finds the French page alone.
    expect(top('configurée')).toEqual([`${S}/fr/serveur`]);
  });

  it('a word typed with other accents than the page has finds it through their common unaccented spelling', () => {
    expect(top('ışık')).toEqual([`${S}/tr/hava`]);
    expect(top('diyarbakır')).toEqual([`${S}/tr/hava`]);
    expect(top('hòa')).toEqual([`${S}/vi/hoa`]);
    expect(top('événement')).toEqual([`${S}/fr/agenda`]);
  });

  it('the exact form ranks first, typed with or without the accent', () => {
    expect(top('strasse')).toEqual([`${S}/de/b`, `${S}/de/a`]);
    expect(top('straße')).toEqual([`${S}/de/a`, `${S}/de/b`]);
  });
});

describe('a language named with a symbol: C++, C#', () => {
  const pages = [
    // The C page says "standard" and "C" more often in a shorter text: without the names it ranks first for "c++ standard".
    { url: `${S}/c-standard`, title: 'C_STANDARD', text: 'C_STANDARD: the C standard whose features are requested. The C standard may be 90, 99 or 11. C standard.' },
    { url: `${S}/cxx-standard`, title: 'CXX_STANDARD', text: 'CXX_STANDARD: the C++ standard whose features are requested to build the target, such as C++17 or C++20. Supported values are listed below, with the flags each compiler takes for them.' },
    { url: `${S}/csharp`, title: 'Visual Studio', text: 'Projects in C# and C are both supported; the C# project type is chosen by the source files.' },
    ...Array.from({ length: 8 }, (_, i) => ({ url: `${S}/filler-${i}`, title: `Filler ${i}`, text: `A page about other things, number ${i}.` })),
  ];
  const engineOf = fixtureEngine(pages);
  const top = (q: string) => engineOf().search(parseQuery(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);

  it('ranks the page that says C++ above one that says only C', () => {
    expect(top('c++ standard').slice(0, 2)).toEqual([`${S}/cxx-standard`, `${S}/c-standard`]);
    expect(top('c standard')[0]).toBe(`${S}/c-standard`);
    expect(top('C# project')[0]).toBe(`${S}/csharp`);
    expect(top('c++17')[0]).toBe(`${S}/cxx-standard`);
  });
});
