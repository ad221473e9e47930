import { describe, expect, it } from 'vitest';
import { buildLinkGraph, type GraphEdge } from './link-graph.js';

const e = (from: string, to: string, text = '', nofollow = false): GraphEdge => ({ from, to, text, nofollow });
const identity = (u: string) => u;

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
  it("keeps a linking page's texts once each, in order, and lets a later text replace an empty one", () => {
    const edges = [
      e('http://a/1', 'http://a/t', ''),
      e('http://a/1', 'http://a/t', 'Home'),
      e('http://a/1', 'http://a/t', 'Home'),
      e('http://a/1', 'http://a/t', 'Start'),
      e('http://a/1', 'http://a/t', 'Home'),
      e('http://a/1', 'http://a/t', 'Begin'),
      e('http://a/2', 'http://a/t', ''),
    ];
    const g = buildLinkGraph(edges, identity, 10);
    expect(g.byTarget.get('http://a/t')).toMatchObject({ inbound: 2, anchors: ['Home Start Begin'] });
  });
});
