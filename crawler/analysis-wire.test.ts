import { describe, expect, it } from 'vitest';
import { analyzeBody, type BodyInput } from './analyze.js';
import { packAnalysis, unpackAnalysis } from './analysis-wire.js';

function input(html: string, xRobotsTag: string[] = []): BodyInput {
  return { url: 'http://a.example/p', body: new Uint8Array(Buffer.from(html)), contentTypeHeader: 'text/html; charset=utf-8', contentType: 'text/html', xRobotsTag, agent: 'Gleaner', stripParams: [] };
}

const PAGE = `<title>T</title><link rel="canonical" href="/c"><h1>Head</h1><p>Body text</p>
  <a href="/x">X</a><a href="/y" rel="nofollow noopener">Y</a><map><area href="/z" alt="Zed"></map>
  <meta http-equiv="refresh" content="0; url=/r"><a href="/x">again</a>`;

describe('analysis wire format', () => {
  it('unpacks to exactly what analyzeBody gave, links and all, and the result survives a structured clone', () => {
    const a = analyzeBody(input(PAGE));
    expect(a.links.length).toBe(5);
    const back = unpackAnalysis(structuredClone(packAnalysis(a)));
    expect(back).toEqual(a);
    expect(back.links).toBe(back.extracted.links); // one array, as analyzeBody returns for a followable page
  });

  it('keeps a nofollow page’s marked links apart from the extracted ones', () => {
    const a = analyzeBody(input(PAGE, ['nofollow']));
    expect(a.links).not.toBe(a.extracted.links);
    const back = unpackAnalysis(structuredClone(packAnalysis(a)));
    expect(back).toEqual(a);
    expect(back.links.every((l) => l.rel.includes('nofollow'))).toBe(true);
    expect(back.extracted.links.filter((l) => l.rel.includes('nofollow'))).toHaveLength(1);
  });

  it('carries a page without links', () => {
    const a = analyzeBody(input('<p>only text</p>'));
    expect(unpackAnalysis(structuredClone(packAnalysis(a)))).toEqual(a);
  });
});
