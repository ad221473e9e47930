import { describe, expect, it } from 'vitest';
import { httpDateMs } from './http-date.js';

describe('httpDateMs', () => {
  it('reads the three HTTP-date formats', () => {
    const at = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'].map(httpDateMs)).toEqual([at, at, at]);
  });
  it('reads no date in what Date.parse alone would take for one', () => {
    for (const text of ['-5', '0', 'garbage date 99', '2026-12-02', '', 'Sunday']) expect(httpDateMs(text), text).toBeUndefined();
  });
});
