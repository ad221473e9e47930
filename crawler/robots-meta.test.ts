import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeRobots, parseRobotsMeta, robotsFromHeader } from './robots-meta.js';

describe('META robots content (issue 4: index/noindex/follow/nofollow/none/all)', () => {
  it.each([
    ['index, follow', true, true],
    ['noindex, follow', false, true],
    ['NOINDEX,FOLLOW', false, true],
    ['index,nofollow', true, false],
    ['noindex nofollow', false, false],
    ['none', false, false],
    ['NONE', false, false],
    ['all', true, true],
    ['', true, true],
    ['noarchive, nosnippet, max-snippet:20', true, true],
    ['index, noindex', false, true], // conflicting directives: the most restrictive wins
  ])('%j -> index %s, follow %s', (content, index, follow) => {
    expect(parseRobotsMeta(content)).toEqual({ index, follow });
  });
});

describe('seed 002: the old ALL= / NONE= convenience forms', () => {
  it.each([
    ['ALL=INDEX,FOLLOW', true, true],
    ['NONE=INDEX,FOLLOW', false, false],
    ['NONE=FOLLOW', true, false],
    ['NONE=INDEX', false, true],
    ['none = index, follow', false, false],
    ['ALL=INDEX, NONE=FOLLOW', true, false],
  ])('%j -> index %s, follow %s', (content, index, follow) => {
    expect(parseRobotsMeta(content)).toEqual({ index, follow });
  });
});

describe('X-Robots-Tag', () => {
  it('applies directives without an agent to every crawler', () => {
    expect(robotsFromHeader(['noindex'], 'Gleaner')).toEqual({ index: false, follow: true });
    expect(robotsFromHeader(['noindex, nofollow'], 'Gleaner')).toEqual({ index: false, follow: false });
    expect(robotsFromHeader(['none'], 'Gleaner')).toEqual({ index: false, follow: false });
  });

  it('applies `agent: directive` only to the named agent, case-insensitively', () => {
    expect(robotsFromHeader(['gleaner: noindex'], 'Gleaner')).toEqual({ index: false, follow: true });
    expect(robotsFromHeader(['GLEANER: nofollow'], 'gleaner')).toEqual({ index: true, follow: false });
    expect(robotsFromHeader(['googlebot: noindex'], 'Gleaner')).toEqual({ index: true, follow: true });
  });

  it('keeps the named agent for the following directives up to the next agent', () => {
    expect(robotsFromHeader(['otherbot: noindex, nofollow, gleaner: nofollow'], 'gleaner')).toEqual({ index: true, follow: false });
    expect(robotsFromHeader(['gleaner: noindex, nofollow, otherbot: none'], 'gleaner')).toEqual({ index: false, follow: false });
  });

  it('does not mistake valued directives for agent names', () => {
    expect(robotsFromHeader(['unavailable_after: 25 Jun 2010 15:00:00 PST, noindex'], 'gleaner')).toEqual({ index: false, follow: true });
    expect(robotsFromHeader(['max-snippet: 20, nofollow'], 'gleaner')).toEqual({ index: true, follow: false });
  });

  it('merges several header lines, the most restrictive winning', () => {
    expect(robotsFromHeader(['index', 'nofollow', 'noindex'], 'gleaner')).toEqual({ index: false, follow: false });
    expect(robotsFromHeader([], 'gleaner')).toEqual({ index: true, follow: true });
  });
});

describe('mergeRobots', () => {
  const dir = fc.record({ index: fc.boolean(), follow: fc.boolean() });
  it('is the most restrictive combination: false wins, order does not matter', () => {
    fc.assert(
      fc.property(fc.array(dir), (all) => {
        const m = mergeRobots(...all);
        expect(m.index).toBe(all.every((d) => d.index));
        expect(m.follow).toBe(all.every((d) => d.follow));
        expect(mergeRobots(...[...all].reverse())).toEqual(m);
      }),
    );
  });
  it('allows everything when nothing was said', () => {
    expect(mergeRobots()).toEqual({ index: true, follow: true });
  });
});
