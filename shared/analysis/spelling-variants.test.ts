import { describe, expect, it } from 'vitest';
import { spellingVariants } from './spelling-variants.js';

describe('spellingVariants: British and American spellings of one word', () => {
  it('gives the other spelling, either way, with the inflections', () => {
    expect(spellingVariants('licence')).toEqual(['license']);
    expect(spellingVariants('license')).toEqual(['licence']);
    expect(spellingVariants('colours')).toEqual(['colors']);
    expect(spellingVariants('behavioural')).toEqual(['behavioral']);
    expect(spellingVariants('favourite')).toEqual(['favorite']);
    expect(spellingVariants('initialise')).toEqual(['initialize']);
    expect(spellingVariants('serialization')).toEqual(['serialisation']);
    expect(spellingVariants('analyser')).toEqual(['analyzer']);
    expect(spellingVariants('centre')).toEqual(['center']);
    expect(spellingVariants('centred')).toEqual(['centered']);
    expect(spellingVariants('catalog')).toEqual(['catalogue']);
    expect(spellingVariants('marshalling')).toEqual(['marshaling']);
    expect(spellingVariants('gray')).toEqual(['grey']);
  });
  it('leaves alone words that only look like one family', () => {
    // "-ise" that American writes too, "-our" and "-re" endings of other words, a plural noun.
    for (const word of ['exercise', 'advertise', 'surprise', 'revise', 'four', 'your', 'hour', 'pour', 'more', 'genre', 'acre', 'analyses', 'analysis', 'program', 'the', '']) {
      expect(spellingVariants(word), word).toEqual([]);
    }
  });
  it('is symmetric: each variant names the word back', () => {
    for (const word of ['licence', 'colour', 'organisations', 'paralysed', 'kilometres', 'dialogues', 'travellers', 'judgement', 'fulfil']) {
      const others = spellingVariants(word);
      expect(others.length, word).toBeGreaterThan(0);
      for (const other of others) expect(spellingVariants(other), other).toContain(word);
    }
  });
});
