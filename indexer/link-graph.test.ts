import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildLinkGraph, pageRank, type GraphEdge } from './link-graph.js';

const e = (from: string, to: string, text = '', nofollow = false): GraphEdge => ({ from, to, text, nofollow });
const identity = (u: string) => u;
const PR = { damping: 0.85, tolerance: 1e-12, maxIterations: 1000 };

describe('buildLinkGraph: inbound counts', () => {
  it('counts distinct linking pages, not links', () => {
    const g = buildLinkGraph([e('http://a/1', 'http://a/t'), e('http://a/1', 'http://a/t'), e('http://a/2', 'http://a/t')], identity, 10);
    expect(g.byTarget.get('http://a/t')?.inbound).toBe(2);
  });
  it('excludes self-links and nofollow links', () => {
    const g = buildLinkGraph([e('http://a/t', 'http://a/t'), e('http://a/1', 'http://a/t', 'x', true)], identity, 10);
    expect(g.byTarget.get('http://a/t')).toBeUndefined();
  });
  it('counts distinct linking hosts', () => {
    const g = buildLinkGraph([e('http://a/1', 'http://c/t'), e('http://a/2', 'http://c/t'), e('http://b/1', 'http://c/t')], identity, 10);
    expect(g.byTarget.get('http://c/t')).toMatchObject({ inbound: 3, inboundHosts: 2 });
  });
  it('credits a link to an alias (redirect, duplicate) to the page that stands for it, and drops the self-link that makes', () => {
    const resolve = (u: string) => (u === 'http://a/old' ? 'http://a/new' : u === 'http://a/gone' ? undefined : u);
    const g = buildLinkGraph([e('http://a/1', 'http://a/old'), e('http://a/new', 'http://a/old'), e('http://a/1', 'http://a/gone')], resolve, 10);
    expect(g.byTarget.get('http://a/new')?.inbound).toBe(1);
    expect(g.byTarget.has('http://a/gone')).toBe(false);
  });
  it('gathers one anchor text per linking page, up to the cap', () => {
    const g = buildLinkGraph([e('http://a/1', 'http://a/t', 'Home'), e('http://a/1', 'http://a/t', 'Start'), e('http://a/2', 'http://a/t', 'Home'), e('http://a/3', 'http://a/t', 'x')], identity, 2);
    expect(g.byTarget.get('http://a/t')?.anchors).toEqual(['Home Start', 'Home']);
  });
});

describe('pageRank on known graphs', () => {
  it('a cycle gives every page the same rank', () => {
    const { rank } = pageRank(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['c', 'a']], PR);
    for (const r of rank.values()) expect(r).toBeCloseTo(1 / 3, 9);
  });
  it('a star into a dangling page: the hub holds 0.542, each leaf 0.153 (solved by hand)', () => {
    // x = (1-d)/4 + d*y/4 and y = (1-d)/4 + d*y/4 + 3*d*x, with 3x + y = 1: x = 0.25 / 1.6375.
    const { rank, iterations } = pageRank(['a', 'b', 'c', 'd'], [['a', 'd'], ['b', 'd'], ['c', 'd']], PR);
    const x = 0.25 / 1.6375;
    expect(rank.get('a')).toBeCloseTo(x, 9);
    expect(rank.get('d')).toBeCloseTo(1 - 3 * x, 9);
    expect(iterations).toBeLessThan(PR.maxIterations);
  });
  it('ignores repeated edges and self-loops', () => {
    const once = pageRank(['a', 'b'], [['a', 'b']], PR).rank;
    const repeated = pageRank(['a', 'b'], [['a', 'b'], ['a', 'b'], ['a', 'a']], PR).rank;
    expect(repeated.get('b')).toBeCloseTo(once.get('b')!, 12);
  });
  it('stops at the tolerance: the last change is below it', () => {
    const r = pageRank(['a', 'b', 'c'], [['a', 'b'], ['b', 'c'], ['a', 'c']], { damping: 0.85, tolerance: 1e-6, maxIterations: 1000 });
    expect(r.delta).toBeLessThan(1e-6);
  });
  it('ranks always sum to 1, dangling pages or not (property)', () => {
    const graph = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 40 })),
    );
    fc.assert(
      fc.property(graph, ([n, pairs]) => {
        const nodes = Array.from({ length: n }, (_, i) => `p${i}`);
        const { rank } = pageRank(nodes, pairs.map(([a, b]) => [`p${a}`, `p${b}`] as const), PR);
        const sum = [...rank.values()].reduce((a, b) => a + b, 0);
        expect(sum).toBeCloseTo(1, 9);
      }),
    );
  });
});
