import { describe, expect, it } from 'vitest';
import { analyze, identifierTails, isIdentifierToken, tokenize } from './index.js';

const extras = (text: string, language = '') => analyze(text, language).filter((s) => s.extra).map((s) => s.token);
const primary = (text: string) => analyze(text).filter((s) => !s.extra).map((s) => s.token);

describe('identifiers: the whole name is a token beside its parts', () => {
  it.each([
    ['SELECT pg_database_size(oid)', 'pg_database_size'],
    ['use date_trunc here', 'date_trunc'],
    ['set max_connections = 100', 'max_connections'],
    ['call os.path.join(a, b).', 'os.path.join'],
    ['see HashMap::entry for details', 'hashmap::entry'],
    ['a Vec<T> of items', 'vec<t>'],
    ['a Vec<_> of items', 'vec<_>'],
    ['edit pg_hba.conf first', 'pg_hba.conf'],
    ['define __init__ in the class', '__init__'],
    ['std::collections::HashMap<K,V>', 'std::collections::hashmap<k,v>'],
  ])('%s -> %s', (text, whole) => {
    expect(extras(text)).toEqual([whole]);
    expect(tokenize(text)).toContain(whole);
  });

  it('keeps the parts as words, at the positions they had', () => {
    expect(primary('set max_connections = 100')).toEqual(['set', 'max', 'connect', '100']);
    const whole = analyze('set max_connections now').find((s) => s.extra)!;
    expect(whole).toMatchObject({ token: 'max_connections', word: 'max_connections', start: 4, end: 19, position: 1 });
    // Plain text has none: sentence ends, spaced operators, open comparisons, trailing underscores.
    expect(extras('It ends. Then a < b and c > d; foo_ bar :: baz')).toEqual([]);
    expect(extras('if a<b then')).toEqual([]);
    // Abbreviations and numbers joined by dots are not names.
    expect(extras('e.g. the U.S. and Ph.D. holders, i.e. in 3.12 or 1.5')).toEqual([]);
  });

  it('tells identifier tokens from words', () => {
    expect(isIdentifierToken('os.path.join')).toBe(true);
    expect(isIdentifierToken('connect')).toBe(false);
  });
  it('reads a name too long to index once: no whole token, no tail of it taken for a name, each part a word', () => {
    for (const [sep, n] of [['.', 200_000], ['::', 100_000], [':', 100_000], ['_', 100_000]] as const) {
      const chain = Array.from({ length: n }, () => 'ab').join(sep);
      const spans = analyze(`see ${chain} end`, 'en');
      expect(spans.filter((s) => s.extra), sep).toEqual([]);
      expect(spans.filter((s) => s.token === 'ab'), sep).toHaveLength(n);
    }
  });
  it('an unclosed generic in a long run is no name and costs no more than a closed one', () => {
    const spans = analyze('Vec<'.repeat(100_000), 'en');
    expect(spans.filter((s) => s.extra)).toEqual([]);
    expect(spans).toHaveLength(100_000);
    expect(analyze('a Vec<String> here').map((s) => s.token)).toContain('vec<string>');
  });
});

describe('a member named after its class with # is the qualified name it is with a dot', () => {
  it.each([
    ['use String#split here', 'string.split'],
    ['Mutex#synchronize and more', 'mutex.synchronize'],
    ['see Net::HTTP#get', 'net::http.get'],
    ['Javadoc writes {@link String#split(String)}', 'string.split'],
  ])('%s -> %s', (text, whole) => {
    expect(extras(text)).toEqual([whole]);
  });

  it("keeps the member's own identifier token beside the qualified one", () => {
    expect(extras('Enumerable#each_with_object')).toEqual(['enumerable.each_with_object', 'each_with_object']);
    expect(extras('Enumerable.each_with_object')).toEqual(['enumerable.each_with_object']);
  });

  it('keeps the parts as words, and C#, F# and x#1 as they were', () => {
    expect(primary('String#split')).toEqual(['string', 'split']);
    expect(tokenize('String#split')).toEqual(tokenize('String.split'));
    expect(extras('C# and F#. x#1')).toEqual(['c#', 'f#']);
  });
});

describe("a function named after its module with one : is the qualified name it is with a dot (Erlang's ets:lookup)", () => {
  it.each([
    ['call ets:lookup(Tab, Key) here', 'ets.lookup'],
    ['see maps:get/2', 'maps.get'],
    ['use gen_server:call and more', 'gen_server.call'],
  ])('%s -> %s', (text, whole) => {
    expect(extras(text)).toEqual([whole]);
  });

  it("keeps the parts as words, the member's own identifier token, and :: as it was", () => {
    expect(primary('ets:lookup')).toEqual(['et', 'lookup']);
    expect(tokenize('ets:lookup')).toEqual(tokenize('ets.lookup'));
    expect(extras('file:read_file')).toEqual(['file.read_file', 'read_file']);
    expect(extras('HashMap::entry')).toEqual(['hashmap::entry']);
  });

  it('joins nothing that is not two names: times, URLs, a word before ": ", drive letters, ports', () => {
    expect(extras('at 10:30 see http://localhost/x and C:\\Windows or C:foo')).toEqual([]);
    expect(extras('Note: this one. Warning:  that. ratio 16:9, localhost:8080, a[i:j]')).toEqual([]);
  });
});

describe('a word with a symbol suffix is a name beside the word: C++, C#, F#', () => {
  it.each([
    ['set the C++ standard', ['c++']],
    ['C# and F#.', ['c#', 'f#']],
    ['compile with g++ -O2', ['g++']],
    ['Notepad++ opens it', ['notepad++']],
    ['C++17 and c++20', ['c++', 'c++']],
  ])('%s -> %j', (text, names) => {
    expect(extras(text)).toEqual(names);
  });

  it('keeps the word itself at its position, so "c" still matches and phrases skip the name', () => {
    expect(primary('the C++ standard')).toEqual(['the', 'c', 'standard']);
    const name = analyze('the C++ standard').find((s) => s.extra)!;
    expect(name).toMatchObject({ token: 'c++', start: 4, end: 7, position: 1 });
    expect(isIdentifierToken('c++')).toBe(true);
    expect(isIdentifierToken('c#')).toBe(true);
  });

  it('is no name in an expression, after digits or inside another name', () => {
    expect(extras('a++b c+++ x#1 3++ i#j')).toEqual([]);
    expect(extras('foo_bar++')).toEqual(['foo_bar']);
    expect(extras('averyveryverylongword++')).toEqual([]);
  });
});

describe('identifierTails', () => {
  it('gives the names a qualified name ends with, not a plain last word', () => {
    expect(identifierTails('foreignkey.on_delete')).toEqual(['on_delete']);
    expect(identifierTails('os.path.join')).toEqual(['path.join']);
    expect(identifierTails('std::vec::vec::push_str')).toEqual(['vec::vec::push_str', 'vec::push_str', 'push_str']);
    expect(identifierTails('max_connections')).toEqual([]);
    expect(identifierTails('c++')).toEqual([]);
  });
});
