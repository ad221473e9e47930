import { describe, expect, it } from 'vitest';
import { porterStem } from './porter.js';

// Examples from Porter's 1980 paper, step by step.
const PAPER: [string, string][] = [
  ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['feed', 'feed'], ['agreed', 'agre'],
  ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'], ['sing', 'sing'], ['conflated', 'conflat'],
  ['hopping', 'hop'], ['falling', 'fall'], ['filing', 'file'], ['happy', 'happi'], ['sky', 'sky'],
  ['relational', 'relat'], ['conditional', 'condit'], ['digitizer', 'digit'], ['vietnamization', 'vietnam'],
  ['predication', 'predic'], ['callousness', 'callous'], ['triplicate', 'triplic'], ['formative', 'form'],
  ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good'], ['allowance', 'allow'],
  ['adjustable', 'adjust'], ['replacement', 'replac'], ['adoption', 'adopt'], ['communism', 'commun'],
  ['effective', 'effect'], ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'],
  ['roll', 'roll'], ['generalizations', 'gener'], ['oscillators', 'oscil'],
];

describe('porterStem', () => {
  it.each(PAPER)('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });
  it('strips -ion after t, so connection and connected share a stem (the bug that made us write it)', () => {
    expect(porterStem('connection')).toBe(porterStem('connected'));
  });
});
