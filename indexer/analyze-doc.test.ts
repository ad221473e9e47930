import { describe, expect, it } from 'vitest';
import { FIELDS } from '../shared/index-format/index.js';
import { analyzeDoc } from './analyze-doc.js';

const BODY = FIELDS.indexOf('body');

describe('analyzeDoc', () => {
  it('indexes an identifier whole and an accented word folded, without lengthening the field: they stand beside words already counted', () => {
    const doc = analyzeDoc({ title: '', headings: [], body: 'set max_connections in Straße', url: 'http://x.test/', anchor: [], language: '' });
    expect(doc.terms).toContain('max_connections');
    expect(doc.terms.some((t) => t.startsWith('~'))).toBe(true);
    // set, max, connections, in, Straße.
    expect(doc.fieldLength[BODY]).toBe(5);
  });

  it('indexes a hyphenated compound joined too ("e-mail": "email"), without lengthening the field or a position', () => {
    const doc = analyzeDoc({ title: '', headings: [], body: 'send e-mail in real-time', url: 'http://x.test/', anchor: [], language: 'en' });
    expect(doc.terms).toEqual(expect.arrayContaining(['e', 'mail', 'email', 'realtim']));
    // send, e, mail, in, real, time.
    expect(doc.fieldLength[BODY]).toBe(6);
    const s = doc.terms.indexOf('email');
    expect(doc.tfs[s * FIELDS.length + BODY]).toBe(1);
    expect(doc.positionEnds[s]).toBe(doc.positionEnds[s - 1]);
    // Its surface word is the compound as written, which a suggestion can show.
    expect(doc.words[s]).toBe('e-mail');
  });
});

describe('snake_case names joined', () => {
  it('indexes a name of underscored words run together too, as Zsh users type its options, outside the length', () => {
    const doc = analyzeDoc({ title: '', headings: [], body: 'setopt EXTENDED_GLOB; see os.path and __init__', url: 'http://x.test/', anchor: [], language: 'en' });
    expect(doc.terms).toEqual(expect.arrayContaining(['extended_glob', 'extendedglob']));
    // Not a dotted name.
    expect(doc.terms).not.toContain('ospath');
    // setopt, extended, glob, see, os, path, and, init.
    expect(doc.fieldLength[BODY]).toBe(8);
    const s = doc.terms.indexOf('extendedglob');
    expect(doc.positionEnds[s]).toBe(doc.positionEnds[s - 1]);
  });
});

describe('defined names', () => {
  const HEADINGS = FIELDS.indexOf('headings');
  const doc = (defines?: string[]) =>
    analyzeDoc({ title: 'Ref', headings: ['Getting items'], body: 'call pam_get_item here', url: 'http://x.test/', anchor: [], language: '', ...(defines ? { defines } : {}) });
  const headingTf = (d: ReturnType<typeof analyzeDoc>, term: string) => {
    const s = d.terms.indexOf(term);
    return s < 0 ? 0 : d.tfs[s * FIELDS.length + HEADINGS]!;
  };

  it('count as a heading word of the page, the whole identifier only, without lengthening the field', () => {
    const plain = doc();
    const defining = doc(['pam_get_item', 'PROMPT_COMMAND']);
    expect(headingTf(plain, 'pam_get_item')).toBe(0);
    expect(headingTf(defining, 'pam_get_item')).toBe(1);
    expect(headingTf(defining, 'prompt_command')).toBe(1);
    // Its parts are no heading words: the page only mentions "get" and "item" in its body.
    expect(headingTf(defining, 'get')).toBe(headingTf(plain, 'get'));
    expect(defining.fieldLength).toEqual(plain.fieldLength);
  });
});
