// How a page's analysis crosses from a parse thread to the crawl loop. postMessage copies objects field
// by field (structured clone), and a page's ~50-300 links were most of that work on both threads: as
// objects, each link is four named fields and an array. Packed (shared/store/links.ts), they are string arrays.

import { packLinks, unpackLinks, type PackedLinks } from '../shared/store/index.js';
import type { BodyAnalysis } from './analyze.js';

export interface PackedAnalysis {
  analysis: Omit<BodyAnalysis, 'links' | 'extracted'> & { extracted: Omit<BodyAnalysis['extracted'], 'links'> };
  extractedLinks: PackedLinks;
  /** undefined when `links` is `extracted.links` itself (a page that may be followed). */
  links: PackedLinks | undefined;
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
