import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyze, foldToken, isFoldToken, primaryTokens, tokenize } from '../../shared/analysis/index.js';
import { bestSnippet, headingsHolding, joinHeadings, querySpans } from './snippet.js';

const q = (s: string) => new Set(tokenize(s));

describe('bestSnippet', () => {
  const filler = 'Lorem ipsum dolor sit amet. '.repeat(20);
  const text = `${filler}The borrow checker rejects this program. ${filler}Borrow once. ${filler}`;
  it('picks the passage holding the most distinct query words and highlights them', () => {
    const s = bestSnippet(text, 'en', q('borrow checker'), { maxChars: 120, scanChars: 50_000 });
    expect(s.text).toContain('The borrow checker rejects');
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b).toLowerCase())).toEqual(['borrow', 'checker']);
    expect(s.text.startsWith('…')).toBe(true);
    expect(s.text.length).toBeLessThanOrEqual(122);
  });
  it('a match inside an identifier opens the snippet at the identifier, not mid-word', () => {
    const body = 'gin_pending_list_limit sets the maximum size of the pending list used when fastupdate is enabled.';
    const s = bestSnippet(body, 'en', q('pending list maximum size'), { maxChars: 60, scanChars: 50_000 });
    expect(s.text.startsWith('gin_pending_list_limit sets the maximum size')).toBe(true);
  });
  it('finds a short word whose stem is not its start ("key" is "kei", "day" is "dai")', () => {
    const body = `${'Notes on xsl:attribute and xsl:element. '.repeat(8)}The xsl:key element declares a key. ${'More on xsl:attribute. '.repeat(8)}`;
    const s = bestSnippet(body, 'en', q('xsl:key'), { maxChars: 120, scanChars: 50_000 });
    expect(s.text).toContain('xsl:key element declares a key');
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b))).toContain('key');
  });
  it('highlights "C++" whole when the query asks for it, and "C" alone when it does not', () => {
    const body = 'The C standard and the C++ standard differ.';
    const marked = (tokens: string[]) => {
      const s = bestSnippet(body, 'en', new Set(tokens));
      return s.highlights.map(([a, b]) => s.text.slice(a, b));
    };
    expect(marked(['c', 'c++', 'standard'])).toEqual(['C', 'standard', 'C++', 'standard']);
    expect(marked(['c', 'standard'])).toEqual(['C', 'standard', 'C', 'standard']);
  });
  it("finds a word between quotes, as Vim and Python name options and values ('helpheight')", () => {
    const body = `${'Other help text about windows. '.repeat(6)}The initial height can be set with the 'helpheight' option (default 20). ${'More text. '.repeat(6)}`;
    const s = bestSnippet(body, 'en', q('helpheight'), { maxChars: 100, scanChars: 50_000 });
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b))).toEqual(['helpheight']);
  });
  it('without a match, starts at the beginning with no highlights', () => {
    const s = bestSnippet('Short text here.', 'en', q('absent'));
    expect(s).toEqual({ text: 'Short text here.', highlights: [] });
  });
  it('merges a Chinese word and its bigrams into one highlight', () => {
    const s = bestSnippet('我们在北京大学学习', 'zh', q('北京'));
    expect(s.highlights.map(([a, b]) => s.text.slice(a, b))).toEqual(['北京']);
  });
});

describe('bestSnippet: highlights are exactly the query words (property)', () => {
  it('every highlight is a word with a query token, and every such word inside the snippet is highlighted', () => {
    const word = fc.constantFrom('impl', 'Trait', 'traits', 'happy', 'happily', 'the', 'x1', "don't", 'Vec', 'b'.repeat(70), 'connection', 'connected');
    const sep = fc.constantFrom(' ', ', ', '. ', '-', '::', '\n');
    const text = fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 40 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(text, fc.array(word, { minLength: 1, maxLength: 3 }), (body, queryWords) => {
        const tokens = new Set(queryWords.flatMap((w) => tokenize(w)));
        const s = bestSnippet(body, 'en', tokens, { maxChars: 80, scanChars: 50_000 });
        const expected = analyze(s.text).filter((span) => tokens.has(span.token));
        const highlighted = s.highlights.map(([a, b]) => s.text.slice(a, b));
        for (const h of highlighted) expect(tokens.has(tokenize(h)[0]!)).toBe(true);
        // Words cut by the window's edge may be partial; whole words inside it are all highlighted.
        const inner = expected.filter((span) => span.start > 1 && span.end < s.text.length - 1).map((span) => s.text.slice(span.start, span.end));
        for (const w of inner) expect(highlighted).toContain(w);
      }),
      { numRuns: 300 },
    );
  });
});

describe('querySpans: the words found by their prefix are the words tokenizing finds (property)', () => {
  it('finds every word whose token is a query token, whatever its case, and nothing else', () => {
    // Upper case, a word inside another ("mapping" holds "map"), a prefix that is its own word ("happ"),
    // "İ", whose lower case is two characters long (every offset after it would move), and short words
    // whose stem changes its last letter ("key" -> "kei", "day" -> "dai").
    const word = fc.constantFrom('map', 'Map', 'MAPS', 'mapping', 'remap', 'happy', 'Happily', 'happ', 'the', 'İstanbul', 'Kelvin', 'connection', 'CONNECTED', "don't", 'x1', 'key', 'Keys', 'monkey', 'day', 'days');
    // Quotes too: "'tabstop'" is a word between quotes, "don't" one word.
    const sep = fc.constantFrom(' ', ', ', '-', '::', '\n', '', " '", "' ", "'", '’', ' ‘');
    const text = fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 30 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(text, fc.array(word, { minLength: 1, maxLength: 3 }), (body, queryWords) => {
        // Words, not the accent-folded tokens beside them (those are found by tokenizing: tokensIn).
        const tokens = new Set(queryWords.flatMap((w) => primaryTokens(w, 'en')));
        const expected = analyze(body, 'en')
          .filter((span) => !span.extra && tokens.has(span.token))
          .map(({ token, start, end }) => ({ token, start, end }));
        expect(querySpans(body, 'en', tokens)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('querySpans: words matched through accent or width folding', () => {
  const filler = (word: string) => Array.from({ length: 3000 }, (_, i) => `${word}${i % 50}`).join(' ');
  const text = `${filler('alpha')} The résumé of the café, naïve grüße Ｆｕｌｌｗｉｄｔｈ text. ${filler('omega')}`;
  /** The tokens a query word is matched by on a page in `language`: its own, and its fold token (compile.ts foldVariants). */
  const asked = (word: string, language: string) => new Set([...tokenize(word, language), foldToken(word, language)]);

  it('highlights the word itself and takes the snippet around it, on a page of any language', () => {
    for (const language of ['en', '', 'fr']) {
      for (const [word, shown] of [['resume', 'résumé'], ['cafe', 'café'], ['naive', 'naïve'], ['grusse', 'grüße'], ['fullwidth', 'Ｆｕｌｌｗｉｄｔｈ']]) {
        const s = bestSnippet(text, language, asked(word!, language));
        expect(s.highlights.map(([a, b]) => s.text.slice(a, b)), `${word} on a page in "${language}"`).toEqual([shown]);
      }
    }
    const short = bestSnippet('latinoneword café naïve', 'en', asked('cafe', 'en'));
    expect(short.highlights.map(([a, b]) => short.text.slice(a, b))).toEqual(['café']);
  });

  it('finds every word whose token or fold token is a query token, as tokenizing does (property)', () => {
    const word = fc.constantFrom('café', 'Café', 'cafe', 'CAFÉS', 'ｃａｆé', 'naïve', 'naive', 'Straße', 'strasse', 'Ｆｕｌｌ', 'full', 'résumé', 'resume', 'we’ll', 'well', 'map', 'the');
    // Separators past ASCII, and CJK words a Latin word may be glued to.
    const sep = fc.constantFrom(' ', ', ', '-', '’', '\n', '—', '😀', '日本', ' 日本 ');
    const text = fc.array(fc.tuple(word, sep), { minLength: 1, maxLength: 30 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(text, fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom('en', ''), (body, queryWords, language) => {
        const tokens = new Set(queryWords.flatMap((w) => [...asked(w, language)]));
        const expected = analyze(body, language)
          .filter((span) => tokens.has(span.token) && (!span.extra || isFoldToken(span.token)))
          .map(({ token, start, end }) => ({ token, start, end }));
        expect(querySpans(body, language, tokens)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('headingsHolding: the query words each heading holds, found once over all headings (property)', () => {
  it('names exactly the headings whose tokens include a query token, with those tokens', () => {
    const word = fc.constantFrom('map', 'Map', 'mapping', 'Iterator', 'iterators', 'happy', 'the', 'İstanbul', 'x1', 'impl', 'Trait');
    const heading = fc.array(word, { minLength: 0, maxLength: 4 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(heading, { minLength: 0, maxLength: 12 }), fc.array(word, { minLength: 1, maxLength: 3 }), (headings, queryWords) => {
        const tokens = new Set(queryWords.flatMap((w) => primaryTokens(w, 'en')));
        const expected = new Map<number, Set<string>>();
        headings.forEach((h, i) => {
          const held = new Set(tokenize(h, 'en').filter((t) => tokens.has(t)));
          if (held.size > 0) expected.set(i, held);
        });
        expect(headingsHolding(joinHeadings(headings), tokens, 'en')).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });
  it('leaves queries with accent-folded tokens to tokenizing', () => {
    expect(headingsHolding(joinHeadings(['Café']), new Set(tokenize('café', 'fr')), 'fr')).toBeUndefined();
  });
});
