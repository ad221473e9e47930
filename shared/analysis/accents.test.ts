import { describe, expect, it } from 'vitest';
import { accentFold, analyze, FOLD_MARK, foldToken, isFoldToken, tokenize } from './index.js';

const folds = (text: string, language = '') => analyze(text, language).filter((s) => s.extra).map((s) => s.token);

describe('accent folding', () => {
  it('drops Latin accents and spells out ß, æ, œ; Russian ё is е; other Cyrillic letters stay', () => {
    expect(accentFold('configurée')).toBe('configuree');
    expect(accentFold('straße')).toBe('strasse');
    expect(accentFold('cœur')).toBe('coeur');
    expect(accentFold('ёлка')).toBe('елка');
    expect(accentFold('йод')).toBe('йод');
    expect(accentFold('python')).toBe('python');
  });

  it('drops the Greek tonos, Arabic harakat, hamza and tatweel, and Hebrew points, which readers type without', () => {
    expect(accentFold('ακρόπολη')).toBe('ακροπολη');
    expect(accentFold('كِتَابٌ')).toBe('كتاب');
    expect(accentFold('أحمد')).toBe('احمد');
    expect(accentFold('القاهـــرة')).toBe('القاهرة');
    expect(accentFold('שָׁלוֹם')).toBe('שלום');
    // The marks of Indic and Thai scripts are vowels: they stay.
    expect(accentFold('हिन्दी')).toBe('हिन्दी');
    expect(accentFold('ภาษา')).toBe('ภาษา');
    // So a page with marks gets the fold token an unmarked query makes.
    expect(folds('كِتَابٌ', 'ar')).toEqual([foldToken('كتاب', 'ar')]);
    expect(folds('בְּרֵאשִׁית', 'he')).toEqual([foldToken('בראשית', 'he')]);
  });

  it('an accented word gets a fold token, made as the query side makes it from the unaccented spelling', () => {
    for (const language of ['', 'fr']) {
      expect(folds('configurée', language)).toEqual([foldToken('configuree', language)]);
    }
    expect(folds('Straße')).toEqual([foldToken('strasse')]);
    expect(tokenize('straße')).toContain(FOLD_MARK + tokenize('strasse').join(''));
  });

  it('stemming and folding agree for fr and es: the fold token of the accented page word is the one an unaccented query makes', () => {
    // French stems "configurée" to "configur" but "configuree" to "configure": only the fold token meets.
    expect(tokenize('configurée', 'fr')).not.toEqual(tokenize('configuree', 'fr'));
    expect(tokenize('configurée', 'fr')).toContain(foldToken('configuree', 'fr'));
    expect(tokenize('configuración', 'es')).toContain(foldToken('configuracion', 'es'));
  });

  it('no fold token where the stem already agrees (Spanish "públicas", Russian "ёлка") or the word has no accent', () => {
    expect(folds('públicas', 'es')).toEqual([]);
    expect(folds('ёлка')).toEqual([]);
    expect(folds('configure')).toEqual([]);
    // Nor for one letter: "š" in a table of digraphs is no word, and "s" typed must not meet it.
    expect(folds('Š š é')).toEqual([]);
    expect(isFoldToken(foldToken('straße'))).toBe(true);
  });
});
