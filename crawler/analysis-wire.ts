// How a page's analysis crosses from a parse thread to the crawl loop. postMessage copies objects field
// by field (structured clone), and a page's ~50-300 links were most of that work on both threads: as
// objects, each link is four named fields and an array. Packed, the links are four arrays of strings.

import type { OutLink } from '../shared/types.js';
import type { BodyAnalysis } from './analyze.js';

interface PackedLinks {
  url: string[];
  text: string[];
  /** rel tokens joined by spaces ('' for none). */
  rel: string[];
  kind: OutLink['kind'][];
}

export interface PackedAnalysis {
  analysis: Omit<BodyAnalysis, 'links' | 'extracted'> & { extracted: Omit<BodyAnalysis['extracted'], 'links'> };
  extractedLinks: PackedLinks;
  /** undefined when `links` is `extracted.links` itself (a page that may be followed). */
  links: PackedLinks | undefined;
}

function packLinks(links: OutLink[]): PackedLinks {
  return { url: links.map((l) => l.url), text: links.map((l) => l.text), rel: links.map((l) => l.rel.join(' ')), kind: links.map((l) => l.kind) };
}

function unpackLinks(p: PackedLinks): OutLink[] {
  const out: OutLink[] = new Array(p.url.length);
  for (let i = 0; i < out.length; i++) {
    const rel = p.rel[i]!;
    out[i] = { url: p.url[i]!, text: p.text[i]!, rel: rel === '' ? [] : rel.split(' '), kind: p.kind[i]! };
  }
  return out;
}

export function packAnalysis(a: BodyAnalysis): PackedAnalysis {
  const { links: extractedLinks, ...extracted } = a.extracted;
  const { links, extracted: _e, ...rest } = a;
  return {
    analysis: { ...rest, extracted },
    extractedLinks: packLinks(extractedLinks),
    links: links === extractedLinks ? undefined : packLinks(links),
  };
}

export function unpackAnalysis(p: PackedAnalysis): BodyAnalysis {
  const extractedLinks = unpackLinks(p.extractedLinks);
  return {
    ...p.analysis,
    extracted: { ...p.analysis.extracted, links: extractedLinks },
    links: p.links === undefined ? extractedLinks : unpackLinks(p.links),
  };
}
