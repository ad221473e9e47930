import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { analyze, foldWord, isCjk, isStopword, languages, primaryTokens, stemWord, tokenize, wordPairs } from './index.js';

describe('tokenize: English', () => {
  it('folds case and stems with Porter, so inflections meet', () => {
    expect(tokenize('Connections')).toEqual(tokenize('connected'));
    expect(tokenize('Running Searches')).toEqual(['run', 'search']);
  });
  it('applies NFKC: full-width letters and ligatures become plain letters', () => {
    expect(tokenize('ＰＹＴＨＯＮ')).toEqual(tokenize('python'));
    expect(tokenize('ﬁle')).toEqual(tokenize('file'));
  });
  it('splits on hyphens and drops apostrophes inside words', () => {
    expect(tokenize('e-mail')).toEqual(['e', 'mail']);
    expect(tokenize("don't")).toEqual(['dont']);
  });
  it('reads through the characters nobody sees inside a word: soft hyphen, zero-width space and joiners', () => {
    expect(tokenize('pass\u200Bword zq\u200Dsecret Silben\u00ADtrennung a\u2060b per\u200Csian')).toEqual(tokenize('password zqsecret Silbentrennung ab persian'));
    // At a word's edge they join nothing, and between CJK characters a zero-width space still separates.
    expect(tokenize('end.\u200B Next \u00ADword')).toEqual(['end', 'next', 'word']);
    expect(tokenize('北京\u200B大学', 'zh')).toEqual(['北京', '大学']);
  });
  it('keeps stopwords in the index tokens but marks them', () => {
    expect(tokenize('to be or not to be')).toHaveLength(6);
    expect(isStopword('the')).toBe(true);
    expect(isStopword(tokenize('python')[0]!)).toBe(false);
  });
  it('drops words longer than 64 characters', () => {
    expect(tokenize('a'.repeat(65) + ' ok')).toEqual(['ok']);
  });
});

describe('tokenize: Spanish', () => {
  it('stems with the Spanish stemmer when the page language is es', () => {
    expect(tokenize('bibliotecas', 'es')).toEqual(tokenize('biblioteca', 'es'));
    expect(tokenize('Públicas', 'es')).toEqual(tokenize('público', 'es'));
  });
  it('folds accented capitals', () => {
    expect(tokenize('ÁRBOL', 'es')).toEqual(tokenize('árbol', 'es'));
  });
  it('knows Spanish function words as stopwords', () => {
    expect(isStopword(tokenize('los', 'es')[0]!)).toBe(true);
  });
});

describe('tokenize: Russian', () => {
  it('stems Cyrillic words by script, whatever language is given', () => {
    expect(tokenize('книгами')).toEqual(tokenize('книга'));
    expect(tokenize('Библиотеки', 'en')).toEqual(tokenize('библиотека'));
  });
  it('marks Russian function words as stopwords', () => {
    expect(isStopword(tokenize('и')[0]!)).toBe(true);
  });
});

describe('tokenize: Chinese and Japanese', () => {
  it('segments Chinese into words, so a two-character word is a token of a sentence', () => {
    const sentence = tokenize('我们在北京大学学习中文', 'zh');
    expect(sentence).toContain(tokenize('北京')[0]);
    expect(tokenize('北京')).toEqual(['北京']);
  });
  it('adds bigrams of adjacent Han characters so a query cut differently still meets the page', () => {
    const spans = analyze('互联网公司', 'zh');
    const tokens = spans.map((s) => s.token);
    for (const bigram of ['互联', '联网', '公司']) expect(tokens).toContain(bigram);
    // Bigrams share their word's position, so phrase positions are not disturbed.
    expect(new Set(spans.map((s) => s.position)).size).toBe(spans.filter((s) => !s.extra).length);
  });
  it('segments Thai, Lao, Khmer and Burmese, which write no spaces between words, by the dictionary', () => {
    const thai = tokenize('ภาษาไทยเป็นภาษาราชการของประเทศไทย', 'th');
    for (const word of ['ภาษา', 'ไทย', 'ราชการ', 'ประเทศไทย']) expect(thai).toContain(word);
    // A word typed alone is the token it is in the sentence.
    expect(tokenize('ราชการ')).toEqual(['ราชการ']);
    expect(tokenize('ຂ້ອຍຢາກໄປຕະຫຼາດ')).toContain('ຕະຫຼາດ');
    expect(tokenize('ខ្ញុំចង់ទៅផ្សារ')).toContain('ផ្សារ');
    expect(tokenize('ကျွန်တော်ဈေးကိုသွားမယ်')).toContain('ဈေး');
  });
  it('segments Japanese with kana', () => {
    expect(tokenize('東京でラーメンを食べました')).toContain('ラーメン');
  });
  it('reads a run of 70,000 Han characters with no punctuation (ICU alone takes minutes past 65,535), its pieces joined by bigrams', () => {
    // 一二 repeated, with an astral Han character (𠀀, a surrogate pair) astride the first piece's end.
    const run = `${'一二'.repeat(499)}一𠀀${'一二'.repeat(35_000)}`;
    expect(run.charCodeAt(999)).toBe(0xd840);
    const spans = analyze(run, 'zh');
    const words = spans.filter((s) => !s.extra);
    for (const s of spans) expect(run.slice(s.start, s.end)).toBe(s.word);
    expect(words.some((s) => s.word.includes('𠀀'))).toBe(true);
    expect(words.map((s) => s.word).join('')).toBe(run);
    // Every adjacent pair of Han characters is a token, at the cuts as elsewhere.
    expect(new Set(spans.map((s) => s.token))).toEqual(new Set(['一二', '二一', '一𠀀', '𠀀一', ...words.map((s) => s.token)]));
  });
  it('offsets point into the original text', () => {
    const text = 'Hello 北京 world';
    for (const s of analyze(text)) expect(text.slice(s.start, s.end).toLowerCase()).toBe(s.word);
  });
});

describe('wordPairs', () => {
  it('pairs neighbouring words, stopwords skipped, so a heading and a query meet', () => {
    expect(wordPairs(tokenize('Reading and Writing Files'))).toEqual(['read write', 'write file', 'read and', 'and write']);
    expect(wordPairs(tokenize('reading writing files'))).toEqual(['read write', 'write file']);
    expect(wordPairs(tokenize('files'))).toEqual([]);
  });
  it('pairs a stopword with its neighbour, never two stopwords', () => {
    expect(wordPairs(tokenize('Here Documents'))).toEqual(['here document']);
    expect(wordPairs(tokenize('if let'))).toEqual(['if let']);
    expect(wordPairs(tokenize('what is it'))).toEqual([]);
  });
  it('primaryTokens leaves out the CJK bigrams', () => {
    expect(primaryTokens('互联网公司')).toEqual(analyze('互联网公司').filter((s) => !s.extra).map((s) => s.token));
    expect(primaryTokens('互联网公司').length).toBeLessThan(tokenize('互联网公司').length);
  });
});

describe('isCjk', () => {
  it('tells Han, kana and Hangul words from others', () => {
    expect(['北京', 'ラーメン', '한국어'].every(isCjk)).toBe(true);
    expect(['книга', 'library', 'café'].some(isCjk)).toBe(false);
  });
});

describe('tokenize: properties', () => {
  it('every span covers a non-empty slice of the text and yields a non-empty token', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const span of analyze(s)) {
          expect(s.slice(span.start, span.end).length).toBeGreaterThan(0);
          expect(span.token.length).toBeGreaterThan(0);
        }
      }),
    );
  });
  it('an indexed word is findable: tokenizing a word alone yields the token it has in a sentence', () => {
    // The range À-ÿ holds × and ÷, which make no token: then there is nothing to find, and nothing may appear.
    const word = fc.stringMatching(/^[A-Za-zÀ-ÿА-я]{1,12}$/);
    fc.assert(
      fc.property(word, word, word, (a, b, c) => {
        const alone = tokenize(b);
        const inSentence = tokenize(`${a} ${b}, ${c}.`);
        const before = tokenize(a).length;
        expect(inSentence.slice(before, before + alone.length)).toEqual(alone);
      }),
    );
  });
  it('in every registered language, a word alone yields the token it has in a sentence (query and page meet)', () => {
    const word = fc.stringMatching(/^[A-Za-zÀ-ÿА-я]{1,12}$/);
    const language = fc.constantFrom(...languages().map((l) => l.code));
    fc.assert(
      fc.property(language, word, word, word, (lang, a, b, c) => {
        const alone = tokenize(b, lang);
        const inSentence = tokenize(`${a} ${b}, ${c}.`, lang);
        const before = tokenize(a, lang).length;
        expect(inSentence.slice(before, before + alone.length)).toEqual(alone);
      }),
    );
  });
  it('a page in an unregistered language is analysed as a page of unknown language (the default analyzer)', () => {
    const text = fc.stringMatching(/^[A-Za-zÀ-ÿА-я北京ラー한 ,.'-]{0,40}$/);
    fc.assert(
      fc.property(text, fc.constantFrom('de', 'xx', 'pt'), (t, lang) => {
        expect(analyze(t, lang)).toEqual(analyze(t, ''));
      }),
    );
  });
  it('the token of each (non-CJK) word is its folded word stemmed by the registry for the page language', () => {
    const text = fc.stringMatching(/^[A-Za-zÀ-ÿА-я0-9 ,.'-]{0,40}$/);
    const language = fc.constantFrom('', ...languages().map((l) => l.code));
    fc.assert(
      fc.property(text, language, (t, lang) => {
        // Extras (identifiers' whole tokens, accent folds) stand beside the words: see identifiers/accents tests.
        for (const span of analyze(t, lang).filter((s) => !s.extra)) expect(span.token).toBe(stemWord(foldWord(t.slice(span.start, span.end)), lang));
      }),
    );
  });
});

describe('tokenize: Korean, a word per run', () => {
  // Korean writes a space between words, so each word was a run of its own handed to Intl.Segmenter,
  // about 25 us each: a 400 KB Korean page took 2.1 s to analyse. A short run's tokens are remembered.
  const korean = Array.from({ length: 4000 }, (_, i) => ['한국어', '문장입니다', '서울에', '살고', '있습니다'][i % 5]).join(' ');
  it('segments each distinct short run once, not once per word', () => {
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      analyze(korean, 'ko');
      expect(segment.mock.calls.length).toBeGreaterThan(0);
      expect(segment.mock.calls.length).toBeLessThanOrEqual(5);
    } finally {
      segment.mockRestore();
    }
  });
  it('the same tokens, offsets and positions however often a run is met, in Chinese and Japanese runs too', () => {
    const mixed = '서울에 살고 서울에 살고. 北京是首都，北京是首都。東京に住む 東京に住む';
    const first = analyze(mixed, 'ko');
    expect(analyze(mixed, 'ko')).toEqual(first);
    const words = first.filter((t) => t.extra !== true);
    expect(words.map((t) => mixed.slice(t.start, t.end))).toEqual(words.map((t) => t.word));
    expect(words.map((t) => t.position)).toEqual(words.map((_, i) => i));
    const again = first.filter((t) => t.token === '서울에');
    expect(again.map((t) => t.start)).toEqual([0, mixed.indexOf('서울에', 1)]);
  });
});
