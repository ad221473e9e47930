// What a fetched body says, on its own: decode the charset, extract text, links and META robots, merge
// X-Robots-Tag, fingerprint the text. Pure and self-contained (its input and output are plain data), so
// it can run in a worker thread: it is most of a crawl's CPU (crawler/analyze-pool.ts).

import type { OutLink, RobotsDirectives } from '../shared/store/index.js';
import { decodeBody } from './charset.js';
import { contentFingerprint, duplicateKey } from './dedup.js';
import { extractHtml, extractPlainText, refreshTarget, type Extracted } from './extract.js';
import { boundFields } from './field-limits.js';
import { linkResolver } from './resolve-link.js';
import { mergeRobots, robotsFromHeader } from './robots-meta.js';
import { extractWithRules, type ExtractRules } from './site-rules.js';

export interface BodyInput {
  url: string;
  body: Uint8Array;
  /** The Content-Type header as sent (charset included). */
  contentTypeHeader: string | undefined;
  /** Media type alone, lower case. */
  contentType: string;
  xRobotsTag: string[];
  /** The `Refresh` response header, when sent (`0; url=/next`). */
  refresh?: string;
  agent: string;
  stripParams: readonly string[];
  /** The site's extraction rules (site-rules.ts), only for sites that set them: cheerio parses those pages. */
  rules?: ExtractRules;
}

export interface BodyAnalysis {
  extracted: Extracted;
  /** META robots and X-Robots-Tag merged, the most restrictive winning. */
  robots: RobotsDirectives;
  /** Links, with `nofollow` added to each when the page as a whole says nofollow. */
  links: OutLink[];
  contentHash: string;
  /** The fingerprint duplicates are looked up by; undefined for a page without text. */
  duplicateKey: string | undefined;
}

export function analyzeBody(input: BodyInput): BodyAnalysis {
  const { text } = decodeBody(input.body, input.contentTypeHeader);
  const extracted =
    input.contentType === 'text/plain'
      ? extractPlainText(text, input.url)
      : input.rules !== undefined
        ? extractWithRules(text, input.url, input.rules, { agent: input.agent, stripParams: input.stripParams }).extracted
        : extractHtml(text, input.url, { agent: input.agent, stripParams: input.stripParams });
  return analysisOf(withRefreshHeader(extracted, input), input);
}

/** The target of a `Refresh` response header as one more link of kind 'refresh', resolved against the
 * page's URL: browsers follow the header as they follow `<meta http-equiv=refresh>`, and some servers
 * send only the header (a moved page answering 200 with an empty body). */
export function withRefreshHeader(extracted: Extracted, input: Pick<BodyInput, 'refresh' | 'url' | 'stripParams'>): Extracted {
  const target = input.refresh === undefined ? undefined : refreshTarget(input.refresh)?.trim();
  if (!target) return extracted;
  const url = linkResolver(input.url, { stripParams: input.stripParams })(target);
  if (url === undefined || url === input.url || extracted.links.some((l) => l.url === url && l.kind === 'refresh')) return extracted;
  return { ...extracted, links: [...extracted.links, { url, text: '', rel: [], kind: 'refresh' }] };
}

/** The analysis of an extracted page (HTML, text, or a PDF: crawler/pdf.ts): robots merged, links, fingerprints. */
export function analysisOf(unbounded: Extracted, input: Pick<BodyInput, 'xRobotsTag' | 'agent'>): BodyAnalysis {
  const extracted = boundFields(unbounded);
  const robots = mergeRobots(extracted.robots, robotsFromHeader(input.xRobotsTag, input.agent));
  // Links of a nofollow page are kept for the record but marked, so they are neither followed nor counted.
  const links = robots.follow ? extracted.links : extracted.links.map((l) => (l.rel.includes('nofollow') ? l : { ...l, rel: [...l.rel, 'nofollow'] }));
  const key = duplicateKey(extracted.text);
  return { extracted, robots, links, contentHash: key ?? contentFingerprint(extracted.text), duplicateKey: key };
}
