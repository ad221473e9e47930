import { describe, expect, it } from 'vitest';
import { DEFAULT_RANK_PARAMS, hubFactor } from './rank.js';

describe('hubFactor', () => {
  const p = { ...DEFAULT_RANK_PARAMS, hubWeight: 0.5, hubFrom: 0.5 };
  it('leaves pages at or below hubFrom alone and demotes in proportion above it, up to hubWeight', () => {
    expect(hubFactor(p, 0)).toBe(1);
    expect(hubFactor(p, 0.5)).toBe(1);
    expect(hubFactor(p, 0.75)).toBeCloseTo(0.75);
    expect(hubFactor(p, 1)).toBeCloseTo(0.5);
    expect(hubFactor(p, 2)).toBeCloseTo(0.5);
  });
  it('does nothing with hubWeight 0', () => {
    expect(hubFactor({ ...p, hubWeight: 0 }, 0.9)).toBe(1);
  });
});
