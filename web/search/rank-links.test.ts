import { describe, expect, it } from 'vitest';
import { DEFAULT_RANK_PARAMS, linkBoost, linkFiguresOf } from './rank.js';

describe('linkBoost with content links', () => {
  const params = { ...DEFAULT_RANK_PARAMS, linkWeight: 0.02, contentLinkWeight: 0.1, templateLinkWeight: 0.01 };
  it('weighs links from page content and from the site template apart', () => {
    expect(linkBoost(params, { inbound: 100, contentInbound: 10 })).toBeCloseTo(1 + 0.1 * Math.log(11) + 0.01 * Math.log(91));
  });
  it('keeps the plain link count where the index does not know template links', () => {
    expect(linkBoost(params, { inbound: 100 })).toBeCloseTo(1 + 0.02 * Math.log(101));
  });
  it('reads content links from the index columns only where they are', () => {
    expect(linkFiguresOf({ inbound: [5], contentInbound: [2] }, 0)).toEqual({ inbound: 5, contentInbound: 2 });
    expect(linkFiguresOf({ inbound: [5] }, 0)).toEqual({ inbound: 5 });
  });
});
