import { describe, expect, it } from 'vitest';
import type { OutLink } from '../shared/store/index.js';
import { hubShare, OPENING_CHARS, openingOf } from './hub.js';

const link = (url: string, text: string): OutLink => ({ url, text, rel: [], kind: 'a' });
const SITE = 'http://h.test';
const prose = 'Generalized inverted indexes store a set of keys with posting lists, and the planner uses them for containment queries over arrays and documents. '.repeat(4);

describe('hubShare', () => {
  it('is near 0 for a page of its own text with a few navigation links', () => {
    const text = `Home Manual Next ${prose}`;
    const share = hubShare({ url: `${SITE}/a`, text, links: [link(`${SITE}/`, 'Home'), link(`${SITE}/m`, 'Manual'), link(`${SITE}/b`, 'Next')] }, () => undefined);
    expect(share).toBeLessThan(0.05);
  });

  it('is high for a table of contents: nearly all of its text names other pages', () => {
    const entries = ['5.1. Introduction', '5.2. Built-in Operator Classes', '5.3. Extensibility', '5.4. Implementation'];
    const text = `Chapter 5. GIN Indexes Table of Contents ${entries.join(' ')}`;
    const share = hubShare({ url: `${SITE}/gin`, text, links: entries.map((e, i) => link(`${SITE}/gin-${i}`, e)) }, () => undefined);
    expect(share).toBeGreaterThan(0.6);
  });

  it('counts the words between the links of a list (an alphabetical index) as the list', () => {
    const text = 'Index G GIN index, Introduction, Implementation GiST index, Introduction hash index, Hash Indexes HOT, Heap-Only Tuples';
    const targets: [string, string][] = [['gin', 'Introduction'], ['gin-impl', 'Implementation'], ['gist', 'Introduction'], ['hash', 'Hash Indexes'], ['hot', 'Heap-Only Tuples']];
    const links = targets.map(([path, anchor]) => link(`${SITE}/${path}`, anchor));
    expect(hubShare({ url: `${SITE}/bookindex`, text, links }, () => undefined)).toBeGreaterThan(0.7);
  });

  it('counts teaser text that repeats the opening of the linked post, not text the post lacks', () => {
    const post = `Release 5: incremental sort ${prose}`;
    const teaser = prose.slice(0, 200);
    const text = `News Release 5: incremental sort ${teaser}… Read more Older posts are kept in the archive for as long as the project exists and can be searched.`;
    const links = [link(`${SITE}/news/5`, 'Release 5: incremental sort'), link(`${SITE}/news/5`, 'Read more')];
    const withPosts = hubShare({ url: `${SITE}/news/page/2/`, text, links }, (u) => (u === `${SITE}/news/5` ? openingOf(post) : undefined));
    const withoutPosts = hubShare({ url: `${SITE}/news/page/2/`, text, links }, () => undefined);
    expect(withPosts).toBeGreaterThan(0.6);
    expect(withoutPosts).toBeLessThan(0.3);
  });

  it('finds teasers in an opening held as UTF-8 bytes as in the string, and never past the opening', () => {
    // Two-byte text (é, —, 漢): a Buffer is searched in bytes, where a piece matches exactly where it does in the string.
    const body = 'Les index inversés — 漢字 compris — gardent une liste de documents par clé. '.repeat(8);
    const post = `Version 5 : tri incrémental ${body}`;
    const text = `Nouvelles Version 5 : tri incrémental ${body.slice(0, 200)}… Lire la suite. Les anciens billets restent dans les archives du projet.`;
    const links = [link(`${SITE}/news/5`, 'Version 5 : tri incrémental'), link(`${SITE}/news/5`, 'Lire la suite')];
    const asString = hubShare({ url: `${SITE}/news/`, text, links }, () => openingOf(post));
    const asBytes = hubShare({ url: `${SITE}/news/`, text, links }, () => Buffer.from(openingOf(post)));
    expect(asString).toBeGreaterThan(0.6);
    expect(asBytes).toBe(asString);
    // A post whose matching text starts past its opening lends the listing no teaser.
    const late = `${'x'.repeat(OPENING_CHARS)} ${post}`;
    expect(hubShare({ url: `${SITE}/news/`, text, links }, () => Buffer.from(openingOf(late)))).toBeLessThan(0.3);
  });

  it('does not count links to the page itself, links of other kinds, or an empty page', () => {
    const text = 'Top Section two of this page is long enough to be its own text and nothing else at all here.';
    const links: OutLink[] = [link(`${SITE}/p#top`, 'Top'), { url: `${SITE}/q`, text: 'Section two', rel: [], kind: 'area' }];
    expect(hubShare({ url: `${SITE}/p`, text, links }, () => undefined)).toBe(0);
    expect(hubShare({ url: `${SITE}/p`, text: '', links }, () => undefined)).toBe(0);
  });
});
