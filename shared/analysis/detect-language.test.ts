import { describe, expect, it } from 'vitest';
import { detectLanguage } from './index.js';

describe('detectLanguage', () => {
  it('tells the Latin-script languages it has stopwords for by their function words', () => {
    expect(detectLanguage('The crawler visits each page of the site and stores what it finds in the index.')).toBe('en');
    expect(detectLanguage('La biblioteca abre a las ocho y los estudiantes pueden reservar salas para el estudio de la tarde.')).toBe('es');
    expect(detectLanguage("Le robot visite chaque page du site et il garde ce qu'il trouve dans les fichiers de la base.")).toBe('fr');
  });

  it('tells CJK and Cyrillic text by its script, Japanese by its kana', () => {
    expect(detectLanguage('图书馆早上八点开门。学生可以预订自习室。')).toBe('zh');
    expect(detectLanguage('図書館は朝八時に開きます。学生は自習室を予約できます。')).toBe('ja');
    expect(detectLanguage('도서관은 아침 여덟 시에 문을 엽니다.')).toBe('ko');
    expect(detectLanguage('Библиотека открывается в восемь часов.')).toBe('ru');
  });

  it('says unknown rather than guess: no letters, too few function words, or a language it has no list for', () => {
    expect(detectLanguage('')).toBe('');
    expect(detectLanguage('42 17 3.14 -- ==')).toBe('');
    expect(detectLanguage('HashMap BTreeMap VecDeque')).toBe('');
    expect(detectLanguage('Das Schlüsselwort ist gewöhnlich ein regulärer Ausdruck und hat den gleichen Effekt wie die Suche in einem Verzeichnis.')).toBe('');
  });
});
