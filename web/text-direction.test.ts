import { describe, expect, it } from 'vitest';
import { textDirection } from './text-direction.js';

describe('textDirection', () => {
  it('right to left for the languages written so, left to right for others, auto when unknown', () => {
    expect(['ar', 'he', 'fa', 'ur', 'ckb'].map(textDirection)).toEqual(['rtl', 'rtl', 'rtl', 'rtl', 'rtl']);
    expect(['en', 'zh', 'ru', 'es'].map(textDirection)).toEqual(['ltr', 'ltr', 'ltr', 'ltr']);
    // Unknown, or not a subtag a page's lang may carry: the browser reads the letters.
    expect(['', 'AR', 'ar-EG', 'x'].map(textDirection)).toEqual(['auto', 'auto', 'auto', 'auto']);
  });
});
