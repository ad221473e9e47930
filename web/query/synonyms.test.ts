import { describe, expect, it } from 'vitest';
import { applySynonyms, DEFAULT_SYNONYM_OPTIONS, parseSynonyms } from './synonyms.js';
import { WEB_DEFAULTS } from '../defaults.js';
import { parseQuery } from './parse.js';
import { GleanerError } from '../../shared/errors.js';

const FILE = `# the intranet's words
k8s, kubernetes, kube
hdd, hard drive
colour => color
out of memory, oom
`;
const rules = parseSynonyms(FILE, 'syn.txt');
const applied = (q: string) => applySynonyms(parseQuery(q), rules);
const understood = (q: string) => applied(q).understood;

describe('parseSynonyms', () => {
  it('reads equivalent groups and explicit mappings, skipping comments and blank lines, in any line ending', () => {
    expect(rules.lines).toBe(4);
    const crlf = parseSynonyms('\uFEFFk8s, kubernetes\r\n\r\n# note\r\ncolour => color\r', 'f');
    expect(crlf.lines).toBe(2);
    expect(applySynonyms(parseQuery('colour k8s'), crlf).understood).toBe('color k8s OR kubernetes');
    // Only a line that starts with "#" is a comment: a "#" inside is part of a name.
    expect(applySynonyms(parseQuery('c#'), parseSynonyms('  # names\nc#, csharp', 'f')).understood).toBe('c# OR csharp');
  });

  it('takes entries as long as a query may be, and no longer', () => {
    expect(DEFAULT_SYNONYM_OPTIONS.maxEntryChars).toBe(WEB_DEFAULTS.maxQueryChars);
  });

  it('refuses a line that says something else than synonyms, naming the file and the line', () => {
    const cases: [string, string][] = [
      ['a, b\nalone', 'f line 2: one entry alone: list two or more, separated by commas, or write "words => other words"'],
      ['a => b => c', 'f line 1: more than one "=>"'],
      ['a, , b', 'f line 1: an empty entry'],
      ['a, "b c"', 'f line 1: `"b c"` is not plain words (no quotes, -, OR, site:, lang:, after:, before: or intitle: in an entry)'],
      ['x, site:example.org', 'f line 1: `site:example.org` is not plain words (no quotes, -, OR, site:, lang:, after:, before: or intitle: in an entry)'],
      ['x, -kube', 'f line 1: `-kube` is not plain words (no quotes, -, OR, site:, lang:, after:, before: or intitle: in an entry)'],
      ['x, release after:2024', 'f line 1: `release after:2024` is not plain words (no quotes, -, OR, site:, lang:, after:, before: or intitle: in an entry)'],
      [Array.from({ length: 101 }, (_, i) => `w${i}`).join(', '), 'f line 1: 101 entries, more than the 100 a line may list'],
      [`b, ${'a'.repeat(100_000)}`, 'f line 1: an entry of 100000 characters, longer than a query may be (512)'],
    ];
    for (const [text, message] of cases) {
      let error: unknown;
      try {
        parseSynonyms(text, 'f');
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(GleanerError);
      expect((error as GleanerError).code).toBe('BAD_ARGUMENT');
      expect((error as GleanerError).message).toBe(message);
    }
  });
});

describe('applySynonyms', () => {
  it('adds the other words of a group as OR alternatives of the word typed, the typed word first', () => {
    expect(understood('k8s deploy')).toBe('k8s OR kubernetes OR kube deploy');
    expect(understood('kube deploy')).toBe('kube OR k8s OR kubernetes deploy');
    // The word meets its entry by its index token: another case, a plural.
    expect(understood('Kubernetes pods')).toBe('Kubernetes OR k8s OR kube pods');
    expect(understood('hdds')).toBe('hdds OR "hard drive"');
    // Accents folded both ways, as search meets accented words.
    const accented = parseSynonyms('café, coffee shop', 'f');
    expect(applySynonyms(parseQuery('cafe'), accented).understood).toBe('cafe OR "coffee shop"');
    expect(applySynonyms(parseQuery('CAFÉ'), parseSynonyms('cafe, coffee', 'f')).understood).toBe('CAFÉ OR coffee');
  });

  it('leaves a query without synonyms as it was parsed, the same object', () => {
    const q = parseQuery('plain words here');
    expect(applySynonyms(q, rules)).toBe(q);
    expect(applySynonyms(parseQuery('k8s'), parseSynonyms('', 'f'))).toEqual(parseQuery('k8s'));
  });

  it('meets an entry of several words only where they are typed side by side, and searches them as a phrase', () => {
    expect(understood('replace hard drive now')).toBe('replace "hard drive" OR hdd now');
    expect(understood('hard disk drive')).toBe('hard disk drive');
    expect(understood('"hard drive"')).toBe('"hard drive"');
    expect(understood('java out of memory')).toBe('java "out of memory" OR oom');
  });

  it('searches an explicit mapping in place of the word typed', () => {
    expect(understood('colour picker')).toBe('color picker');
    expect(applied('colour picker').required.map((g) => g.map((a) => a.tokens))).toEqual(parseQuery('color picker').required.map((g) => g.map((a) => a.tokens)));
  });

  it('expands each word of a group typed with OR, each exclusion, and keeps a field restriction', () => {
    expect(understood('k8s OR docker')).toBe('k8s OR kubernetes OR kube OR docker');
    expect(understood('deploy -k8s')).toBe('deploy -k8s -kubernetes -kube');
    const titled = applied('intitle:k8s');
    expect(titled.required[0]!.map((a) => [a.text, a.field])).toEqual([
      ['k8s', 'title'],
      ['kubernetes', 'title'],
      ['kube', 'title'],
    ]);
  });

  it('keeps an alternative once, however many entries give it', () => {
    const overlapping = parseSynonyms('k8s, kubernetes\nk8s, kube, kubernetes', 'f');
    expect(applySynonyms(parseQuery('k8s'), overlapping).understood).toBe('k8s OR kubernetes OR kube');
    expect(understood('k8s OR kubernetes')).toBe('k8s OR kubernetes OR kube');
  });

  it('caps the alternatives a word gains, and says so', () => {
    const many = parseSynonyms(Array.from({ length: 30 }, (_, i) => `name${i}`).join(', '), 'f');
    const q = applySynonyms(parseQuery('name0'), many);
    expect(q.required[0]).toHaveLength(17);
    expect(q.ignored).toEqual(['synonyms of name0 past the first 16']);
  });

  it('writes what it understood in the query language: parsing that again gives the same query', () => {
    for (const q of ['k8s deploy', 'replace hard drive now', 'colour OR paint -oom', 'intitle:kube']) {
      const once = applied(q);
      const again = parseQuery(once.understood);
      expect(again.required, q).toEqual(once.required);
      expect(again.excluded, q).toEqual(once.excluded);
      // And applying the synonyms to it changes nothing more.
      expect(applySynonyms(again, rules).understood, q).toBe(once.understood);
    }
  });
});
