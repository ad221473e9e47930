import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, foldWord, identifierAt, tokenAt } from '../../shared/analysis/index.js';
import { bestSection, headingOpensWith, leafNamed, pickSection, sectionUrl, shapeOf, termLeaf, throughHeadedText, type Places } from './sections.js';

const tokens = (q: string) => new Set(analyze(q, 'en').map((t) => t.token));

/** A stored body made of sections, each heading followed by its text, with their start offsets; a
 * fourth element `true` makes it a definition term. */
function doc(parts: [id: string, heading: string, text: string, term?: true][], intro = 'A page description.') {
  let body = intro;
  const sections = parts.map(([id, heading, text, term]) => {
    body += ' ';
    const start = body.length;
    body += `${heading} ${text}`;
    return term ? { id, heading, start, term } : { id, heading, start };
  });
  return { body, language: 'en', sections };
}

const page = doc([
  ['top', 'Collections', 'This module implements container datatypes. Containers hold things.'],
  ['deque', 'deque objects', 'Returns a new deque object initialized left-to-right. Deques support thread-safe appends.'],
  ['counter', 'Counter objects', 'A counter tool is provided to support convenient and rapid tallies.'],
  ['ordered', 'OrderedDict objects', 'Ordered dictionaries are just like regular dictionaries, remembering insertion order of appends.'],
]);

describe('bestSection', () => {
  it('shows what a heading over subheadings only heads, not an empty snippet', () => {
    // githooks(5): "HOOKS", then each hook a section of its own.
    const body = 'githooks Programs Git runs. HOOKS applypatch-msg This hook is invoked by git am. pre-commit This hook is invoked by git commit.';
    const at = (t: string) => body.indexOf(t);
    const hooks = { body, language: 'en', sections: [{ id: 'top', heading: 'githooks', start: 0 }, { id: 'hooks', heading: 'HOOKS', start: at('HOOKS') }, { id: 'applypatch', heading: 'applypatch-msg', start: at('applypatch') }, { id: 'pre-commit', heading: 'pre-commit', start: at('pre-commit') }] };
    const s = bestSection(hooks, tokens('hooks'));
    expect(s?.id).toBe('hooks');
    expect(body.slice(s!.start, s!.end).trim()).toBe('applypatch-msg This hook is invoked by git am.');
    // A part with text of its own keeps its end; the page's top is left alone.
    const three = shapeOf([{}, {}, {}]);
    expect(throughHeadedText({ index: 1, next: 2 }, three, (i) => [0, 10, 40][i]!, 5)).toEqual({ index: 1, next: 2 });
    expect(throughHeadedText({ index: 1, next: 2 }, three, (i) => [0, 10, 14][i]!, 5)).toEqual({ index: 1, next: 3 });
    expect(throughHeadedText({ index: -1, next: 3 }, three, () => 0, 5)).toEqual({ index: -1, next: 3 });
    // A definition term without text (an index entry) does not take its neighbour's.
    expect(throughHeadedText({ index: 1, next: 2 }, shapeOf([{}, { term: true }, {}]), (i) => [0, 10, 14][i]!, 5)).toEqual({ index: 1, next: 2 });
  });

  it('asks for the heading size only when the next section starts within its bound, and answers as with the size given', () => {
    // snippet-positions.ts passes the heading's word count as a function and its length as the bound.
    const asked: number[] = [];
    const lazy = (size: number) => () => (asked.push(size), size);
    const three = shapeOf([{}, {}, {}]);
    expect(throughHeadedText({ index: 1, next: 2 }, three, (i) => [0, 10, 40][i]!, lazy(5), 12)).toEqual({ index: 1, next: 2 });
    expect(asked).toEqual([]);
    expect(throughHeadedText({ index: 1, next: 2 }, three, (i) => [0, 10, 14][i]!, lazy(5), 12)).toEqual({ index: 1, next: 3 });
    expect(asked).toEqual([5]);
    fc.assert(
      fc.property(fc.array(fc.nat(30), { minLength: 1, maxLength: 8 }), fc.nat(10), fc.nat(12), fc.nat(8), fc.boolean(), (gaps, size, slack, at, term) => {
        const starts = gaps.reduce<number[]>((acc, g) => [...acc, (acc[acc.length - 1] ?? 0) + g], []);
        const sections = shapeOf(starts.map((_, i) => (term && i === at % starts.length ? { term: true as const } : {})));
        const part = { index: at % starts.length, next: (at % starts.length) + 1 };
        const eager = throughHeadedText(part, sections, (i) => starts[i]!, size);
        expect(throughHeadedText(part, sections, (i) => starts[i]!, () => size, size + slack)).toEqual(eager);
      }),
      { numRuns: 2000 },
    );
  });

  it('picks the section whose heading and text hold the query words, with the text after its heading', () => {
    const s = bestSection(page, tokens('deque appends'));
    expect(s?.id).toBe('deque');
    expect(s?.heading).toBe('deque objects');
    expect(page.body.slice(s!.start, s!.end).trim()).toBe('Returns a new deque object initialized left-to-right. Deques support thread-safe appends.');
  });

  it('prefers the section holding more of the query words over one repeating a single word', () => {
    expect(bestSection(page, tokens('ordered insertion'))?.id).toBe('ordered');
  });

  it('a word in a heading outweighs the same word once in another section text', () => {
    expect(bestSection(page, tokens('counter'))?.id).toBe('counter');
  });

  it('prefers the section whose heading names the query words over a long one repeating them', () => {
    const manual = doc([
      ['params', 'Shell Parameter Expansion', 'The expansion of a parameter. '.repeat(40) + 'Arithmetic is done elsewhere; arithmetic again.'],
      ['arith', 'Arithmetic Expansion', 'Evaluates an arithmetic expression and substitutes the result.'],
    ]);
    expect(bestSection(manual, tokens('arithmetic expansion'))?.id).toBe('arith');
  });

  it('between headings naming every query word, prefers the one that opens with it, then the score', () => {
    const timers = doc([
      ['top', 'Timers', 'The timer module.'],
      ['promises', 'timersPromises.setTimeout([delay[, value]])', 'Like setTimeout, a promise. setTimeout setTimeout setTimeout.'],
      ['settimeout', 'setTimeout(callback[, delay])', 'Schedules a callback once.'],
    ]);
    expect(bestSection(timers, tokens('setTimeout'))?.id).toBe('settimeout');
    // A label or a declaration's keywords before the name are passed over ("Class: EventEmitter").
    const events = doc([
      ['top', 'Events', 'Much of the Node.js core API is built around an asynchronous event-driven architecture.'],
      ['emitter', 'Class: EventEmitter', 'The EventEmitter class is defined and exposed by the node:events module.'],
      ['async', 'Class: events.EventEmitterAsyncResource extends EventEmitter', 'Integrates EventEmitter with AsyncResource for EventEmitters that need manual async tracking, EventEmitter by EventEmitter.'],
    ]);
    expect(bestSection(events, tokens('EventEmitter'))?.id).toBe('emitter');
    const iter = doc([
      ['top', 'Trait Iterator', 'An interface for dealing with iterators.'],
      ['flat-map', 'pub fn flat_map<U, F>(self, f: F) -> FlatMap<Self, U, F>', 'Works like map, but flattens nested structure: map then flatten, map map.'],
      ['map', 'pub fn map<B, F>(self, f: F) -> Map<Self, F>', 'Takes a closure and creates an iterator.'],
    ]);
    expect(bestSection(iter, tokens('map'))?.id).toBe('map');
    // A heading naming only some of the words opens with one to no avail: the text decides, as before.
    const create = doc([
      ['top', 'CREATE INDEX', 'CREATE INDEX builds an index. Synopsis: CREATE INDEX CONCURRENTLY name.'],
      ['concurrently', 'Building Indexes Concurrently', 'Creating an index concurrently: CREATE INDEX CONCURRENTLY waits; concurrently built indexes take longer.'],
    ]);
    expect(bestSection(create, tokens('create index concurrently'))?.id).toBe('concurrently');
  });

  it('gives no section for one word a page says throughout when the section saying it most has under half of it', () => {
    const rtree = doc([
      ['intro', '1. Overview', 'An rtree is a special index. The rtree module answers range queries with an rtree.'],
      ['create', '2. Creating A Table', 'Create an rtree table; each rtree row is a box, one rtree per table.'],
      ['callback', '3. The Query Callback', 'The rtree calls back with rtree_query_info, the rtree state and rtree depth.'],
    ]);
    expect(bestSection(rtree, tokens('rtree'))).toBeUndefined();
    // Most of its places in one section: that section.
    const focused = doc([...page.sections.map((sec, i) => [sec.id, sec.heading, i === 1 ? 'appends appends appends' : 'text'] as [string, string, string]), ['more', 'More', 'One appends.']]);
    expect(bestSection(focused, tokens('appends'))?.id).toBe('deque');
    // Two words a section holds together, under a heading that names neither: that section.
    const ternary = doc([
      ['top', 'Expressions', 'This chapter explains the meaning of the elements of expressions in Python.'],
      ['conditional', '6.13. Conditional expressions', 'A conditional expression (sometimes called a ternary operator) has the lowest priority.'],
      ['other', '6.14. Lambdas', 'The operator precedence table lists every operator.'],
    ]);
    expect(bestSection(ternary, tokens('ternary operator'))?.id).toBe('conditional');
  });

  it('chooses by the words the page title does not hold: the title says the others for every section', () => {
    // "What's New In Python 3.10": "Deprecated" says "Python 3.10" throughout, and once the other words.
    const news = doc([
      ['summary', 'Summary', 'Release highlights of this version.'],
      ['pep634', 'PEP 634: Structural Pattern Matching', 'A match statement compares a subject with case blocks.'],
      ['deprecated', 'Deprecated', 'The old parser is deprecated in Python 3.10. The pattern of re.match flags is deprecated in Python 3.10. Removed in Python 3.12.'],
    ]);
    const query = tokens('python 3.10 pattern matching');
    expect(bestSection(news, query)?.id).toBe('deprecated');
    expect(bestSection(news, query, tokens('python 3.10'))?.id).toBe('pep634');
  });
  it('gives no section when the page top matches best, the page has one section, or none', () => {
    expect(bestSection(page, tokens('container datatypes'))).toBeUndefined();
    expect(bestSection(doc([['only', 'Only', 'deque here']]), tokens('deque'))).toBeUndefined();
    expect(bestSection({ body: 'deque', language: 'en' }, tokens('deque'))).toBeUndefined();
  });

  describe('definition terms', () => {
    // Sphinx's string methods: the section's text, two terms, then the section's text again after
    // the list (which a flat list of starts gives to the last term).
    const types = doc([
      ['top', 'Built-in Types', 'The principal built-in types are numerics, sequences and mappings.'],
      ['string-methods', 'String Methods', 'Strings implement all of the common sequence operations.'],
      ['str.split', 'str.split(sep=None)', 'Return a list of the words in the string, using sep as the delimiter string.', true],
      ['str.strip', 'str.strip(chars=None)', 'Return a copy of the string with the leading and trailing characters removed. Formatted string literals are described elsewhere.', true],
      ['bytes-methods', 'Bytes Methods', 'Bytes objects split into words with bytes.split, and the words are bytes too.'],
    ]);

    it('links to the term that names every query word, with its text as the snippet', () => {
      const s = bestSection(types, tokens('str.split'));
      expect(s?.id).toBe('str.split');
      expect(types.body.slice(s!.start, s!.end).trim()).toBe('Return a list of the words in the string, using sep as the delimiter string.');
      expect(bestSection(types, tokens('strip'))?.id).toBe('str.strip');
    });

    it('chooses the section over the headings alone, a term taking none of its text', () => {
      expect(bestSection(types, tokens('string methods'))?.id).toBe('string-methods');
      // Words only a term's text holds: the section is chosen, the term's heading names none of them.
      expect(bestSection(types, tokens('delimiter'))?.id).toBe('string-methods');
    });

    it('takes a term only when the query names what it defines, not only its module or parameters', () => {
      const etree = doc([
        ['top', 'xml.etree.ElementTree', 'The module implements an API for parsing and creating XML data.'],
        ['parsing-xml', 'Parsing XML', 'We can import this data by reading from a file: parse the XML document.'],
        ['loader', 'xml.etree.ElementInclude.default_loader(href, parse, encoding=None)', 'Default loader for XInclude.', true],
        ['hot', 'hot_standby (boolean)', 'Whether queries run during recovery.', true],
        ['feedback', 'hot_standby_feedback (boolean)', 'Whether a hot standby sends feedback to the primary, standby by standby.', true],
      ]);
      expect(bestSection(etree, tokens('parse xml'))?.id).toBe('parsing-xml');
      // Both name the two words; the one whose name is all query words, before the one saying them more.
      expect(bestSection(etree, tokens('hot standby'))?.id).toBe('hot');
    });

    it('finds the name a term defines: before a signature or value, its last component', () => {
      expect(['class collections.defaultdict(default_factory=None, /[, ...])', 'max_connections (integer)', 'type hint', 'coroutine asyncio.sleep(delay)', 'CONFIG_SITE=file', 'HashMap::entry', '(5) SQLITE_BUSY'].map(termLeaf)).toEqual([
        'defaultdict', 'max_connections', 'hint', 'sleep', 'CONFIG_SITE', 'entry', 'SQLITE_BUSY',
      ]);
      expect(leafNamed('hot_standby_feedback (boolean)', tokens('hot standby'), 'en')).toBe('some');
      expect(leafNamed('hot_standby (boolean)', tokens('hot standby'), 'en')).toBe('whole');
      expect(leafNamed('asyncio.run(coro)', tokens('asyncio'), 'en')).toBe('none');
    });

    it('links a name typed alone to the term that qualifies it (Sphinx: `ForeignKey.on_delete`)', () => {
      // Django's model field reference: attributes are terms qualified by their class, and a method's
      // parameter may carry the name too (`get_list_display_links(request, list_display)`).
      const fields = doc([
        ['top', 'Model field reference', 'This document contains all the API references of Field.'],
        ['arguments', 'Arguments', 'ForeignKey accepts other arguments that define the details of how the relation works, on_delete first.'],
        ['fk.on_delete', 'ForeignKey.on_delete', 'When an object referenced by a ForeignKey is deleted, Django will emulate the behavior of the SQL constraint.', true],
        ['links', 'ModelAdmin.get_list_display_links(request, list_display)', 'Returns the fields in list_display to link, list_display_links.', true],
        ['display', 'ModelAdmin.list_display', 'Set list_display to control which fields are displayed on the change list page.', true],
      ]);
      expect(bestSection(fields, tokens('on_delete'))?.id).toBe('fk.on_delete');
      expect(bestSection(fields, tokens('list_display'))?.id).toBe('display');
      // Typed qualified, the same term.
      expect(bestSection(fields, tokens('ForeignKey.on_delete'))?.id).toBe('fk.on_delete');
    });

    it('prefers a term inside the chosen section, then the one whose text holds the words most', () => {
      // "split" is named by str.split only ("bytes.split" is in a text, not a term); "words" by none.
      expect(bestSection(types, tokens('split words'))?.id).toBe('bytes-methods');
      const two = doc([
        ['a', 'Alpha', 'Text about alpha things.'],
        ['a.x', 'x(n)', 'Returns n.', true],
        ['b', 'Beta', 'Text about x and beta, x again: beta x.'],
        ['b.x', 'x(n, m)', 'Returns n and m, x of both.', true],
      ]);
      expect(bestSection(two, tokens('x beta'))?.id).toBe('b');
      expect(bestSection(two, tokens('x'))?.id).toBe('b.x');
    });
  });

  it('ignores sections past the part of the body that was read', () => {
    const cut = { ...page, body: page.body.slice(0, page.sections[2]!.start - 1) };
    expect(bestSection(cut, tokens('counter tallies'))).toBeUndefined();
  });
});

describe('pickSection', () => {
  const TOKENS = ['a', 'b', 'c'];
  // Sections (non-decreasing starts, some empty), the query words' places and the words each heading holds.
  const page = fc
    .record({
      gaps: fc.array(fc.nat(30), { minLength: 1, maxLength: 40 }),
      places: fc.array(fc.record({ at: fc.nat(700), token: fc.nat(TOKENS.length - 1) }), { maxLength: 80 }),
      headings: fc.array(fc.subarray(TOKENS), { maxLength: 40 }),
      end: fc.oneof(fc.constant(Infinity), fc.nat(800)),
    })
    .map(({ gaps, places, headings, end }) => {
      const starts = gaps.map((_, i) => gaps.slice(1, i + 1).reduce((s, g) => s + g, 0));
      const unique = [...new Map(places.map((p) => [`${p.at} ${p.token}`, p])).values()].sort((x, y) => x.at - y.at || x.token - y.token);
      const at = Int32Array.from(unique, (p) => p.at);
      const token = Uint16Array.from(unique, (p) => p.token);
      const sets = starts.map((_, i) => new Set(headings[i] ?? []));
      return { bounds: { count: starts.length, start: (i: number) => starts[i]!, end }, places: { at, token, from: 0, to: at.length, tokens: TOKENS } satisfies Places, sets };
    });

  it('scores only the sections that hold a place or name a word when told which name one, and picks the same', () => {
    fc.assert(
      fc.property(page, ({ bounds, places, sets }) => {
        const named = sets.flatMap((s, i) => (s.size > 0 ? [i] : []));
        const everySection = pickSection(bounds, places, (i) => sets[i]!);
        expect(pickSection(bounds, places, (i) => sets[i]!, named)).toBe(everySection);
        // Out of order, repeated or out of bounds, the same (named is read as it is only when ascending).
        expect(pickSection(bounds, places, (i) => sets[i]!, [...named, ...named].reverse().concat([-1, bounds.count + 3]))).toBe(everySection);
      }),
      { numRuns: 500 },
    );
  });

  it('prefers a section naming the word in its heading over one holding it once in its text', () => {
    const places: Places = { at: Int32Array.of(15), token: Uint16Array.of(0), from: 0, to: 1, tokens: ['a'] };
    const sets = [new Set<string>(), new Set<string>(), new Set(['a'])];
    expect(pickSection({ count: 3, start: (i) => [0, 10, 20][i]!, end: Infinity }, places, (i) => sets[i]!, [2])).toBe(2);
  });
});

describe('sectionUrl', () => {
  it('puts the id in the fragment, replacing one, percent-encoding what a fragment cannot hold', () => {
    expect(sectionUrl('http://h/p.html', 'method.push')).toBe('http://h/p.html#method.push');
    expect(sectionUrl('http://h/p.html#old', 'GIN-INTRO')).toBe('http://h/p.html#GIN-INTRO');
    expect(sectionUrl('http://h/p', 'a b"é')).toBe('http://h/p#a%20b%22%C3%A9');
  });
});

describe('headingOpensWith', () => {
  const LABEL = /^[^\p{L}]*(?:\p{L}[\p{L} ]{0,24}:\s+|(?:(?:pub|async|unsafe|const|static|abstract|class|exception|coroutine|awaitable|fn|struct|enum|trait|mod|macro|def)\s+)+)/u;
  /** The rule written the plain way: the opening word tokenized, then the identifier it opens. */
  const plain = (heading: string, queryTokens: ReadonlySet<string>, language: string): boolean => {
    const label = LABEL.exec(heading);
    const from = label === null ? heading.search(/\p{L}/u) : label[0].length;
    if (from < 0) return false;
    const word = tokenAt(heading, from, language)?.token;
    if (word !== undefined && queryTokens.has(word)) return true;
    const id = identifierAt(heading, from);
    return id !== undefined && id.raw !== '' && queryTokens.has(foldWord(id.raw));
  };

  it('reads the opening word past numbers, labels and declaration keywords, and the identifier it opens', () => {
    expect(headingOpensWith('9.3. Arrays', tokens('array'), 'en')).toBe(true);
    expect(headingOpensWith('Class: EventEmitter', tokens('eventemitter'), 'en')).toBe(true);
    expect(headingOpensWith('pub fn output(&self)', tokens('output'), 'en')).toBe(true);
    expect(headingOpensWith('type Output = u8', tokens('output'), 'en')).toBe(false);
    expect(headingOpensWith('fs.readFile(path)', new Set(['fs.readfile']), 'en')).toBe(true);
    // Elided and accented openings are tokenized, not judged by their first letter.
    expect(headingOpensWith("L'homme et la machine", new Set(analyze("l'homme", 'fr').map((t) => t.token)), 'fr')).toBe(true);
    expect(headingOpensWith('Übersicht', new Set(analyze('übersicht', 'de').map((t) => t.token)), 'de')).toBe(true);
  });

  it('agrees with the rule written the plain way, over headings of words, names, labels and marks', () => {
    const words = ['Output', 'output', 'type', 'Arrays', "l'homme", "qu'il", 'Äpfel', 'apfel', 'dying', 'die', 'skies', 'sky', 'fs.readFile', 'HashMap::entry', 'max_connections', '_private', 'O\'Reilly', 'İstanbul', 'naïve', 'naive', '9.3.', 'Class:', 'pub', 'fn', '(x)', 'ünïcode', '数据', 'e-mail', 'C++', 'x86_64'];
    const heading = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    const query = fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(heading, query, fc.constantFrom('en', 'fr', 'de', 'tr', 'zh'), (h, q, language) => {
        const queryTokens = new Set(q.flatMap((w) => analyze(w, language).map((t) => t.token)));
        expect(headingOpensWith(h, queryTokens, language)).toBe(plain(h, queryTokens, language));
      }),
      { numRuns: 3000 },
    );
  });
});
