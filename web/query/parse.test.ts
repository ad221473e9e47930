import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseQuery as parseWith, siteHost, languageCode } from './parse.js';
import { tokenize } from '../../shared/analysis/index.js';
import { urlWords } from '../../shared/index-format/index.js';

const parse = (q: string, limits?: { maxQueryChars?: number; maxQueryAtoms?: number }) => parseWith(q, { tokenize, limits });
const term = (text: string) => ({ kind: 'term', text, tokens: tokenize(text) });
const phrase = (text: string) => ({ kind: 'phrase', text, tokens: tokenize(text) });

describe('words', () => {
  it('every word is required, each in its own group, tokens from the shared tokenizer', () => {
    const q = parse('Borrow checker');
    expect(q.required).toEqual([[term('Borrow')], [term('checker')]]);
    expect(q.excluded).toEqual([]);
    expect(q.understood).toBe('Borrow checker');
    expect(q.ignored).toEqual([]);
  });

  it('empty and blank input give an empty query without notices', () => {
    for (const input of ['', '   ', '\t\n']) {
      const q = parse(input);
      expect(q.required).toEqual([]);
      expect(q.understood).toBe('');
      expect(q.ignored).toEqual([]);
    }
  });

  it('a word that is only punctuation is ignored with the reason', () => {
    const q = parse('rust !!! ---');
    expect(q.required).toEqual([[term('rust')]]);
    expect(q.ignored).toContain('!!! (no searchable words)');
  });

  it('uses the indexer\'s tokenizer: stems, folds case and width, splits a Chinese word into several tokens', () => {
    expect(parse('Crawlers').required[0]![0]!.tokens).toEqual(tokenize('crawler'));
    expect(parse('ＲＵＳＴ').required[0]![0]!.tokens).toEqual(tokenize('rust'));
    expect(parse('北京大学').required[0]![0]!.tokens.length).toBeGreaterThan(1);
  });

  it('a word with an unknown prefix is an ordinary word', () => {
    const q = parse('foo:bar');
    expect(q.required).toEqual([[term('foo:bar')]]);
  });

  it('lower-case "or" is a word, not the operator', () => {
    expect(parse('this or that').required).toHaveLength(3);
  });
});

describe('phrases', () => {
  it('"exact phrase" is one phrase atom, inner whitespace collapsed', () => {
    const q = parse('"borrow   checker" rust');
    expect(q.required).toEqual([[phrase('borrow checker')], [term('rust')]]);
    expect(q.understood).toBe('"borrow checker" rust');
  });

  it('typographic quotes from phones open and close phrases', () => {
    expect(parse('\u201cweb crawler\u201d').required).toEqual([[phrase('web crawler')]]);
    expect(parse('\u00abweb crawler\u00bb').required).toEqual([[phrase('web crawler')]]);
  });

  it('an unbalanced quote runs the phrase to the end and says so', () => {
    const q = parse('robots "crawl delay');
    expect(q.required).toEqual([[term('robots')], [phrase('crawl delay')]]);
    expect(q.ignored.join(' ')).toMatch(/missing closing quote/);
  });

  it('an empty phrase is ignored', () => {
    const q = parse('"" rust ""');
    expect(q.required).toEqual([[term('rust')]]);
    expect(q.ignored.filter((s) => s.includes('(empty)'))).toHaveLength(2);
  });

  it('operators inside a phrase are words of the phrase', () => {
    const q = parse('"to be OR not -to site:x"');
    expect(q.required).toEqual([[phrase('to be OR not -to site:x')]]);
    expect(q.sites).toEqual([]);
    expect(q.excluded).toEqual([]);
  });

  it('a quote inside a word starts a phrase', () => {
    expect(parse('foo"bar baz"').required).toEqual([[term('foo')], [phrase('bar baz')]]);
  });
});

describe('exclusion', () => {
  it('-term and -"phrase" are excluded', () => {
    const q = parse('crawler -spider -"web robot"');
    expect(q.required).toEqual([[term('crawler')]]);
    expect(q.excluded).toEqual([term('spider'), phrase('web robot')]);
    expect(q.understood).toBe('crawler -spider -"web robot"');
  });

  it('a lone "-" at the start, middle or end is ignored with a notice', () => {
    for (const input of ['- rust', 'rust - go', 'rust -']) {
      const q = parse(input);
      expect(q.excluded).toEqual([]);
      expect(q.ignored).toContain('a "-" with no word after it');
    }
  });

  it('the Unicode minus sign excludes too', () => {
    expect(parse('rust \u2212unsafe').excluded).toEqual([term('unsafe')]);
  });

  it('a command-line option is a word: two minuses, or one before a single letter or digit', () => {
    for (const [input, option] of [
      ['cargo build --release', '--release'],
      ['set -e', '-e'],
      ['shopt -s nullglob', '-s'],
      ['tail -1', '-1'],
    ] as const) {
      const q = parse(input);
      expect(q.excluded).toEqual([]);
      expect(q.required.flat().map((a) => a.text)).toContain(option);
      expect(q.understood).toBe(input);
      expect(parse(q.understood)).toEqual(q);
    }
    expect(parse('rust -go').excluded).toEqual([term('go')]);
  });

  it('a hyphen inside a word is not an exclusion', () => {
    const q = parse('e-mail');
    expect(q.excluded).toEqual([]);
    expect(q.required).toEqual([[term('e-mail')]]);
  });

  it('a query of exclusions only keeps them (the page asks for a word to search)', () => {
    const q = parse('-spam');
    expect(q.required).toEqual([]);
    expect(q.excluded).toEqual([term('spam')]);
  });
});

describe('OR', () => {
  it('joins the words on either side into one group', () => {
    const q = parse('crawler OR spider robots');
    expect(q.required).toEqual([[term('crawler'), term('spider')], [term('robots')]]);
    expect(q.understood).toBe('crawler OR spider robots');
  });

  it('chains: a OR b OR c is one group; "|" is the same operator', () => {
    expect(parse('a1 OR b2 OR c3').required).toEqual([[term('a1'), term('b2'), term('c3')]]);
    expect(parse('a1 | b2').required).toEqual([[term('a1'), term('b2')]]);
  });

  it('joins phrases and field words too', () => {
    expect(parse('"web crawler" OR intitle:spider').required).toEqual([[phrase('web crawler'), { ...term('spider'), field: 'title' }]]);
  });

  it('at the start, at the end, repeated, or alone is ignored with where it was', () => {
    expect(parse('OR rust').ignored).toEqual(['"OR" at the start']);
    expect(parse('rust OR').ignored).toEqual(['"OR" at the end']);
    expect(parse('OR').ignored).toEqual(['"OR" at the start']);
    const doubled = parse('rust OR OR go');
    expect(doubled.ignored).toEqual(['a repeated "OR"']);
    expect(doubled.required).toEqual([[term('rust'), term('go')]]);
    for (const input of ['OR rust', 'rust OR', 'OR']) expect(parse(input).understood).not.toMatch(/OR/);
  });

  it('next to an exclusion or a filter it is ignored, the words stay', () => {
    const a = parse('rust OR -go');
    expect(a.required).toEqual([[term('rust')]]);
    expect(a.excluded).toEqual([term('go')]);
    expect(a.ignored.join(' ')).toMatch(/"OR" before -go/);
    const b = parse('-go OR rust');
    expect(b.required).toEqual([[term('rust')]]);
    expect(b.ignored).toEqual(['"OR" that does not follow a word']);
    const c = parse('rust OR site:example.com');
    expect(c.sites).toEqual(['example.com']);
    expect(c.ignored.join(' ')).toMatch(/"OR" before site:example\.com/);
  });

  it('-OR is an excluded word, not an operator', () => {
    expect(parse('rust -OR').ignored.join(' ')).not.toMatch(/"OR"/);
  });
});

describe('operators of other query languages', () => {
  it('NOT and AND in capitals are dropped and listed, with what to write instead', () => {
    const q = parse('vacuum NOT freeze AND analyze');
    expect(q.required).toEqual([[term('vacuum')], [term('freeze')], [term('analyze')]]);
    expect(q.ignored).toEqual(['"NOT" (to leave out pages with a word, write -word)', '"AND" (every word is required already)']);
    expect(q.understood).toBe('vacuum freeze analyze');
  });

  it('in lower case, or quoted, they are words', () => {
    expect(parse('not and').required).toEqual([[term('not')], [term('and')]]);
    expect(parse('"NOT"').required).toEqual([[phrase('NOT')]]);
    expect(parse('NOT "a b').ignored).toEqual(['"NOT" (to leave out pages with a word, write -word)', 'the missing closing quote after "a b" (the phrase runs to the end)']);
  });
});

describe("a word with a prefix that is no operator: Erlang's module:function", () => {
  it('is searched as the identifier, the operators kept', () => {
    const q = parse('ets:lookup site:example.org lang:en');
    expect(q.required).toEqual([[term('ets:lookup')]]);
    expect(q.required[0]![0]!.tokens).toContain('ets.lookup');
    expect(q.sites).toEqual(['example.org']);
    expect(parse('lists:keyfind/3').required[0]![0]!.tokens).toContain('lists.keyfind');
  });
});

describe('site:', () => {
  it('takes a host, lower-cased, from a bare host or a URL', () => {
    expect(parse('rust site:Docs.Example.COM').sites).toEqual(['docs.example.com']);
    expect(parse('site:https://example.org/a/b?x=1').sites).toEqual(['example.org']);
    expect(parse('site:*.example.org.').sites).toEqual(['example.org']);
  });

  it('keeps the port: two servers on one host are two sites', () => {
    expect(parse('site:example.org:8080').sites).toEqual(['example.org:8080']);
    expect(parse('site:http://127.0.0.1:8081/library/').sites).toEqual(['127.0.0.1:8081']);
    expect(parse('rust site:127.0.0.1:8081').understood).toBe('rust site:127.0.0.1:8081');
    expect(parse('site:127.0.0.1').sites).toEqual(['127.0.0.1']);
    expect(parse('site:example.org:99999').ignored).toEqual(['site:example.org:99999 (not a host name)']);
  });

  it('IDN hosts become punycode, as the crawler stores them', () => {
    expect(parse('site:bücher.de').sites).toEqual(['xn--bcher-kva.de']);
  });

  it('several site: are alternatives, duplicates once; -site: excludes', () => {
    const q = parse('rust site:a.com site:b.com site:A.com -site:c.com');
    expect(q.sites).toEqual(['a.com', 'b.com']);
    expect(q.excludedSites).toEqual(['c.com']);
    expect(q.understood).toBe('rust site:a.com site:b.com -site:c.com');
  });

  it('a value that is no host, or no value, is ignored with the reason', () => {
    const bad = parse('rust site:exa%20mple');
    expect(bad.sites).toEqual([]);
    expect(bad.ignored).toEqual(['site:exa%20mple (not a host name)']);
    const empty = parse('rust site: example');
    expect(empty.sites).toEqual([]);
    expect(empty.ignored).toEqual(['"site:" with no value after it']);
    expect(empty.required).toEqual([[term('rust')], [term('example')]]);
  });

  it('the operator name is case-insensitive', () => {
    expect(parse('SITE:example.com').sites).toEqual(['example.com']);
  });
});

describe('intitle: inurl: lang:', () => {
  it('intitle: and inurl: restrict a word or phrase to a field', () => {
    const q = parse('intitle:robots inurl:"crawl delay" -intitle:draft');
    expect(q.required).toEqual([[{ ...term('robots'), field: 'title' }], [{ ...phrase('crawl delay'), field: 'url' }]]);
    expect(q.excluded).toEqual([{ ...term('draft'), field: 'title' }]);
    expect(q.understood).toBe('intitle:robots inurl:"crawl delay" -intitle:draft');
  });

  it('inurl: reads its value as the index reads an address: without .html, .htm, .php, .asp or .aspx', () => {
    const atoms = (q: string) => parse(q).required.flat().map((a) => a.tokens);
    expect(atoms('inurl:git-rebase.html')).toEqual(atoms('inurl:git-rebase'));
    expect(atoms('inurl:howto/rebase-from-internal-branch.html')).toEqual(atoms('inurl:howto/rebase-from-internal-branch'));
    expect(atoms('inurl:"struct.Map.html"')).toEqual(atoms('inurl:"struct.Map"'));
    // Every token asked for is one the address's own words hold.
    const indexed = new Set(tokenize(urlWords('http://docs.test/howto/rebase-from-internal-branch.html')));
    for (const token of atoms('inurl:howto/rebase-from-internal-branch.html').flat()) expect(indexed, token).toContain(token);
    expect(parse('rebase inurl:html').ignored).toEqual(['inurl:html (addresses are searched without their .html, .htm, .php, .asp, .aspx)']);
    expect(parse('rebase inurl:.PHP').required).toHaveLength(1);
  });

  it('lang: takes the primary subtag; several are alternatives', () => {
    expect(parse('rust lang:en-GB lang:ES lang:en').languages).toEqual(['en', 'es']);
  });

  it('lang: with a name instead of a code, or negated, is ignored with the reason', () => {
    expect(parse('rust lang:english').ignored).toEqual(['lang:english (use a language code such as lang:en)']);
    const neg = parse('rust -lang:en');
    expect(neg.languages).toEqual([]);
    expect(neg.ignored[0]).toMatch(/can be chosen, not excluded/);
  });

  it('after: and before: take a year, a month or a day, written back whole; every bound applies', () => {
    const q = parse('release notes after:2024-3 before:2025');
    expect([q.after, q.before]).toEqual(['2024-03', '2025']);
    expect(q.understood).toBe('release notes after:2024-03 before:2025');
    expect(q.required.map((g) => g[0]!.text)).toEqual(['release', 'notes']);
    expect(parse('x after:2020 AFTER:2024/02/29 after:2021').after).toBe('2024-02-29');
    expect(parse('x before:2030 before:2024-01 before:2026').before).toBe('2024-01');
    expect(parse('x after:2024-02-29').after).toBe('2024-02-29');
  });

  it('a date filter that names no date, or is negated, is ignored with the reason', () => {
    expect(parse('x after:2023-02-29').ignored).toEqual(['after:2023-02-29 (use a year, a month or a day, such as after:2024-03-01)']);
    expect(parse('x before:yesterday').ignored).toEqual(['before:yesterday (use a year, a month or a day, such as before:2024-03-01)']);
    const neg = parse('x -after:2024');
    expect(neg.after).toBeUndefined();
    expect(neg.ignored).toEqual(['-after:2024 (a date filter cannot be excluded: before: and after: bound the dates)']);
    expect(parse('x after:2024-13').after).toBeUndefined();
    expect(parse('x OR after:2024').ignored).toEqual(['"OR" before after:2024 (OR joins words to include)']);
  });

  it('helpers: siteHost and languageCode', () => {
    expect(siteHost('')).toBeUndefined();
    expect(siteHost('user@host')).toBeUndefined();
    expect(siteHost('HTTP://X.y/')).toBe('x.y');
    expect(languageCode('zh_Hant')).toBe('zh');
    expect(languageCode('e')).toBeUndefined();
  });
});

describe('hostile input', () => {
  it('very long input is cut at the limit with a notice', () => {
    const q = parse('word '.repeat(1000));
    expect(q.ignored).toContain('input cut at 512 characters');
  });

  it('the cut never splits a character outside the BMP', () => {
    const q = parse('😀'.repeat(20), { maxQueryChars: 5, maxQueryAtoms: 32 });
    expect(q.ignored[0]).toBe('input cut at 5 characters');
    expect(q.understood).not.toMatch(/[\ud800-\udfff](?![\udc00-\udfff])/);
  });

  it('words beyond the atom limit are counted, not used', () => {
    const q = parse(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '));
    expect(q.required).toHaveLength(32);
    expect(q.ignored).toEqual(['8 more words (at most 32 are used)']);
  });

  it('control characters separate words; lone surrogates do not break anything', () => {
    const q = parse('rust\u0000go\u0007\ud800');
    expect(q.required.map((g) => g[0]!.text)).toEqual(['rust', 'go', '\ufffd'].filter((t) => tokenize(t).length > 0));
  });

  it('any Unicode: Chinese, Russian, Spanish, RTL and emoji words', () => {
    for (const word of ['网络爬虫', 'поисковый', 'búsqueda', 'محرك', 'Ελληνικά']) {
      const q = parse(`${word} -${word}`);
      expect(q.required).toEqual([[term(word)]]);
      expect(q.excluded).toEqual([term(word)]);
    }
  });

  it('HTML and script in a query stay text (escaping is the view\'s job)', () => {
    const q = parse('<script>alert(1)</script>');
    expect(q.understood).toBe('<script>alert(1)</script>');
  });

  it('property: never throws, every atom has tokens, notices are strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 700 }), (input) => {
        const q = parse(input);
        for (const atom of [...q.required.flat(), ...q.excluded]) expect(atom.tokens.length).toBeGreaterThan(0);
        for (const group of q.required) expect(group.length).toBeGreaterThan(0);
        for (const note of q.ignored) expect(typeof note).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('property: operator soup never throws and the understood query parses to itself', () => {
    const piece = fc.constantFrom('OR', '|', '-', '"', 'site:', 'intitle:', 'inurl:', 'lang:', 'after:', 'before:', '2024', '-03', 'rust', 'go', 'ex.com', 'en', ' ', '\u201c', '网络');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const q = parse(pieces.join(''));
        const again = parse(q.understood);
        expect(again.understood).toBe(q.understood);
        expect(again.required).toEqual(q.required);
        expect(again.excluded).toEqual(q.excluded);
        expect(again.sites).toEqual(q.sites);
        expect([again.after, again.before]).toEqual([q.after, q.before]);
      }),
      { numRuns: 500 },
    );
  });
});
