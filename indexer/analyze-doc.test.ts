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
});
