import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildLinkGraph, type GraphEdge, type PageLinks, templateAnchorCopies } from './link-graph.js';

const e = (from: string, to: string, text = '', nofollow = false): GraphEdge => ({ from, to, text, nofollow });
const identity = (u: string) => u;

describe('buildLinkGraph: inbound counts', () => {
  it('counts distinct linking pages, not links', () => {
    const g = buildLinkGraph([[e('http://a/1', 'http://a/t'), e('http://a/1', 'http://a/t'), e('http://a/2', 'http://a/t')]], identity, 10);
    expect(g.byTarget.get('http://a/t')?.inbound).toBe(2);
  });
  it('excludes self-links and nofollow links', () => {
    const g = buildLinkGraph([[e('http://a/t', 'http://a/t'), e('http://a/1', 'http://a/t', 'x', true)]], identity, 10);
    expect(g.byTarget.get('http://a/t')).toBeUndefined();
  });
  it('counts distinct linking hosts', () => {
    const g = buildLinkGraph([[e('http://a/1', 'http://c/t'), e('http://a/2', 'http://c/t'), e('http://b/1', 'http://c/t')]], identity, 10);
    expect(g.byTarget.get('http://c/t')).toMatchObject({ inbound: 3, inboundHosts: 2 });
  });
  it('credits a link to an alias (redirect, duplicate) to the page that stands for it, and drops the self-link that makes', () => {
    const resolve = (u: string) => (u === 'http://a/old' ? 'http://a/new' : u === 'http://a/gone' ? undefined : u);
    const g = buildLinkGraph([[e('http://a/1', 'http://a/old'), e('http://a/new', 'http://a/old'), e('http://a/1', 'http://a/gone')]], resolve, 10);
    expect(g.byTarget.get('http://a/new')?.inbound).toBe(1);
    expect(g.byTarget.has('http://a/gone')).toBe(false);
  });
  it("gathers each linking page's anchor texts, each its own, up to the cap", () => {
    const g = buildLinkGraph([[e('http://a/1', 'http://a/t', 'Home'), e('http://a/1', 'http://a/t', 'Start'), e('http://a/2', 'http://a/t', 'Home'), e('http://a/3', 'http://a/t', 'x')]], identity, 3);
    expect(g.byTarget.get('http://a/t')).toMatchObject({ inbound: 3, anchors: ['Home', 'Start', 'Home'] });
  });
  it("counts a text the site's template repeats 1 + log2(n) times, after the content links' texts", () => {
    // A book's sidebar: 195 pages link to the chapter from their template, one from its prose.
    const edges = Array.from({ length: 195 }, (_, i) => ({ ...e(`http://a/p${i}`, 'http://a/scope', 'Scope and Shadowing'), template: true }));
    edges.push({ ...e('http://a/let', 'http://a/scope', 'shadowed'), template: false });
    const links = buildLinkGraph([edges], identity, 1000).byTarget.get('http://a/scope')!;
    expect(links.inbound).toBe(196);
    expect(links.anchors).toEqual(['shadowed', ...Array<string>(8).fill('Scope and Shadowing')]);
    expect([0, 1, 2, 3, 4, 7, 8, 195].map(templateAnchorCopies)).toEqual([0, 1, 2, 2, 3, 3, 4, 8]);
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
    const g = buildLinkGraph([edges], identity, 10);
    expect(g.byTarget.get('http://a/t')).toMatchObject({ inbound: 2, anchors: ['Home', 'Start', 'Begin'] });
  });
});

/** The counting rules written the plain way, a map of sources per target: what buildLinkGraph must give. */
function plainGraph(edges: GraphEdge[], resolve: (u: string) => string | undefined, maxAnchors: number): Map<string, PageLinks> {
  const sources = new Map<string, Map<string, string[]>>();
  const content = new Map<string, Set<string>>();
  for (const edge of edges) {
    const to = edge.nofollow ? undefined : resolve(edge.to);
    const from = resolve(edge.from) ?? edge.from;
    if (to === undefined || from === to) continue;
    if (edge.template !== true) content.set(to, (content.get(to) ?? new Set()).add(from));
    const bySource = sources.get(to) ?? new Map<string, string[]>();
    sources.set(to, bySource);
    const texts = bySource.get(from) ?? [];
    bySource.set(from, texts);
    const text = edge.text.trim();
    if (text !== '' && !texts.includes(text)) texts.push(text);
  }
  const out = new Map<string, PageLinks>();
  for (const [to, bySource] of sources) {
    // Content sources' texts in order, each its own, then each text of template-only sources (joined)
    // as many times as the bits of how many such sources said it (1, 2 for 2-3, 3 for 4-7, ...).
    const contentFrom = content.get(to) ?? new Set<string>();
    const said = [...bySource].filter(([, t]) => t.length > 0);
    const texts = said.filter(([from]) => contentFrom.has(from)).flatMap(([, t]) => t);
    const templateSaid = new Map<string, number>();
    for (const [from, t] of said) if (!contentFrom.has(from)) templateSaid.set(t.join(' '), (templateSaid.get(t.join(' ')) ?? 0) + 1);
    for (const [text, n] of templateSaid) for (let bits = n; bits > 0; bits >>= 1) texts.push(text);
    const hosts = new Set([...bySource.keys()].map((u) => new URL(u).host));
    out.set(to, { inbound: bySource.size, inboundHosts: hosts.size, anchors: texts.slice(0, maxAnchors), contentInbound: content.get(to)?.size ?? 0 });
  }
  return out;
}

describe('buildLinkGraph against the plain rules (property)', () => {
  it('gives the same counts and anchor texts, in the same order, for any edges', () => {
    const url = fc.constantFrom('http://a/1', 'http://a/2', 'http://b/1', 'http://b/2', 'http://c/old', 'http://c/gone');
    const edge = fc.record({ from: url, to: url, text: fc.constantFrom('', ' ', 'Home', 'Next', 'home page'), nofollow: fc.boolean(), template: fc.option(fc.boolean(), { nil: undefined }) });
    const resolve = (u: string) => (u === 'http://c/old' ? 'http://a/1' : u === 'http://c/gone' ? undefined : u);
    fc.assert(
      // edgesAtMost: no bound (0), or room for 1 to 80 edges, fewer than given or more: grown or not, the same graph.
      fc.property(fc.array(edge, { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 80 }), (edges, maxAnchors, edgesAtMost) => {
        const g = buildLinkGraph([edges], resolve, maxAnchors, edgesAtMost);
        const plain = plainGraph(edges, resolve, maxAnchors);
        expect([...g.byTarget]).toEqual([...plain]);
        expect(g.edgeCount).toBe([...plain.values()].reduce((n, p) => n + p.inbound, 0));
      }),
      { numRuns: 500 },
    );
  });
});
