// Content fingerprints for exact-duplicate detection (seed 003: "content fingerprints").
//
// The fingerprint is the SHA-1 (hex) of the page's visible text after normalisation: Unicode NFC, case
// folded (toLowerCase), whitespace runs collapsed to one space, trimmed. Why this choice:
// - the text, not the bytes: the same article served under two URLs often differs in markup that carries
//   the URL itself (session ids in links, a canonical tag, a timestamp comment), which the text does not;
// - exact, not near-duplicate (simhash, shingles): no false positives, one hash lookup per page, and the
//   aliases a crawler meets most (session ids, index.html vs /, http vs https, case-insensitive servers)
//   give identical text; near-duplicates are a ranking concern, not a crawl one;
// - SHA-1: fast in node:crypto, 160 bits makes accidental collisions irrelevant at any crawl size, and
//   nothing is at stake if someone crafts one (a page would be stored as an alias). Not a security use.
// Empty text has no fingerprint worth comparing (frames pages, images-only pages, empty meta-refresh stubs
// would all be "duplicates" of each other), so `duplicateKey` returns undefined for it.

import { createHash } from 'node:crypto';

/** The text as compared: NFC, lower case, whitespace collapsed, trimmed. */
export function normalizeForFingerprint(text: string): string {
  // Each step runs only when it can change something: extracted text is usually collapsed and trimmed
  // already, and NFC of pure ASCII is itself, so the common page pays two scans instead of four passes.
  let t = NON_ASCII.test(text) ? text.normalize('NFC') : text;
  t = t.toLowerCase();
  return UNCOLLAPSED.test(t) ? t.replace(/[\s\u00a0]+/g, ' ').trim() : t;
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Any whitespace but a single inner space: a tab, newline, no-break or wide space, two spaces, or an edge. */
const UNCOLLAPSED = /[^\S ]| {2}|^ | $/;

/** SHA-1 hex of the normalised text: the PageRecord contentHash. */
export function contentFingerprint(text: string): string {
  return sha1(normalizeForFingerprint(text));
}

/** The fingerprint to look duplicates up by, or undefined when the page has no text to compare. */
export function duplicateKey(text: string): string | undefined {
  const normal = normalizeForFingerprint(text);
  return normal === '' ? undefined : sha1(normal);
}

function sha1(normal: string): string {
  return createHash('sha1').update(normal, 'utf8').digest('hex');
}
