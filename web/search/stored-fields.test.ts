// A stored record read whole, cut short, as a snippet's header or as a part of its body gives back what
// the page said: the layout (language and sections, body, then the rest) is invisible to its readers.

import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureGeneration } from '../../test/support/fixture-generation.js';
import type { IndexGeneration } from '../../shared/index-format/index.js';
import { StoredFields, type SnippetHeader } from './stored-fields.js';
import { DEFAULT_BLOCK_CACHE_OPTIONS } from './stored-blocks.js';
import { sectionsOf } from './section-columns.js';

/** A snippet header as the stored record's fields: what it says, not how the cache keeps it. */
const parsed = (h: SnippetHeader) => ({ language: h.language, context: h.context, sections: h.sections && sectionsOf(h.sections) });

const body = 'Ownership rules. Every value has an owner. Borrowing lends a value without moving it. Ünïcödé words – and “quotes”.';
const pages = [
  {
    url: 'http://book.test/ownership',
    title: 'Ownership',
    headings: ['Ownership', 'Borrowing'],
    text: body,
    sections: [
      { id: 'top', heading: 'Ownership', start: 0 },
      { id: 'borrowing', heading: 'Borrowing', start: body.indexOf('Borrowing') },
    ],
  },
  // Many pages link here with their own words: the anchor texts stored after the body.
  { url: 'http://book.test/borrowing', title: 'Borrowing', text: 'References and borrowing.' },
  ...Array.from({ length: 30 }, (_, i) => ({
    url: `http://book.test/link-${i}`,
    title: `Link ${i}`,
    text: `Page ${i}.`,
    links: [['http://book.test/ownership', `owner anchor ${i}`] as [string, string]],
  })),
];

const generation = fixtureGeneration(pages);
let gen: IndexGeneration;
let stored: StoredFields;
let doc: number;
beforeAll(() => {
  gen = generation();
  stored = new StoredFields(gen);
  doc = gen.docs.url.indexOf('http://book.test/ownership');
  return () => stored.close();
});

describe('StoredFields', () => {
  it('reads a whole record back: body, sections, title, headings and every inbound anchor text', () => {
    const d = stored.read(doc);
    expect(d.body).toBe(body);
    expect(d.url).toBe('http://book.test/ownership');
    expect(d.title).toBe('Ownership');
    expect(d.headings).toEqual(['Ownership', 'Borrowing']);
    expect(d.language).toBe('en');
    expect(d.sections?.map((s) => s.id)).toEqual(['top', 'borrowing']);
    expect(d.anchor.filter((a) => a.startsWith('owner anchor')).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `owner anchor ${i}`).sort());
  });

  it('reads a record with its body cut short and everything else whole', () => {
    const d = stored.read(doc, 10);
    expect(body.startsWith(d.body.replace(/\uFFFD$/u, ''))).toBe(true);
    expect(d.body.length).toBeLessThan(body.length);
    expect(d.anchor.length).toBeGreaterThanOrEqual(30);
    expect(d.sections).toEqual(stored.read(doc).sections);
  });

  it('gives a snippet the language and sections alone, and any part of the body by bytes', () => {
    const header = stored.header(doc);
    expect({ language: header.language, sections: sectionsOf(header.sections!) }).toEqual({ language: 'en', sections: stored.read(doc).sections });
    const bytes = Buffer.from(body, 'utf8');
    const from = bytes.indexOf('Borrowing');
    expect(stored.bodyPart(doc, from, from + 'Borrowing'.length)).toEqual({ text: 'Borrowing', atEnd: false });
    expect(stored.bodyPart(doc, from)).toEqual({ text: bytes.subarray(from).toString('utf8'), atEnd: true });
    // Only the record's start is read for a snippet: its header is a small part of it.
    expect(gen.docs.storedHeaderLength[doc]! + gen.docs.storedBodyLength[doc]!).toBeLessThan(gen.docs.storedLength[doc]!);
  });
});

describe('StoredFields through a small block cache', () => {
  // The same pages with stored.bin in chunks of 64 bytes: records span chunks.
  const smallChunks = fixtureGeneration(pages, { storedChunkBytes: 64 });
  it('reads every record, header and body part as reading the file directly does', () => {
    const tiny = smallChunks();
    expect(tiny.storedChunks.chunkBytes).toBe(64);
    expect(tiny.storedChunks.ends.length - 1).toBeGreaterThan(20);
    // Three chunks kept, so records evict each other at every read; and none kept.
    const small = new StoredFields(tiny, { cacheMiB: (3 * 64) / 2 ** 20 });
    const direct = new StoredFields(tiny, { cacheMiB: 0 });
    try {
      for (let d = 0; d < gen.docs.url.length; d++) {
        const same = tiny.docs.url.indexOf(gen.docs.url.at(d)!);
        for (const other of [small, direct]) {
          expect(other.read(same)).toEqual(stored.read(d));
          expect(other.read(same, 5)).toEqual(stored.read(d, 5));
          expect(parsed(other.header(same))).toEqual(parsed(stored.header(d)));
          expect(other.bodyPart(same, 3, 40)).toEqual(stored.bodyPart(d, 3, 40));
        }
      }
      expect(small.read(tiny.docs.url.indexOf('http://book.test/ownership')).body).toBe(body);
    } finally {
      small.close();
      direct.close();
    }
  });
});

describe('StoredFields parsed headers', () => {
  it('keeps a header parsed within headerCacheMiB, and parses it anew once the others push it out', () => {
    const kept = new StoredFields(gen, DEFAULT_BLOCK_CACHE_OPTIONS, 1);
    // Room for about one small header: each read pushes out the one before.
    const tight = new StoredFields(gen, DEFAULT_BLOCK_CACHE_OPTIONS, 100 / 2 ** 20);
    try {
      const other = doc === 0 ? 1 : 0;
      // What the cache keeps is the page's sections as columns, its headings joined among them: the same
      // object while kept. A header is made from them at each call, equal each time.
      const first = kept.joinedHeadings(doc);
      expect(first.starts.length).toBeGreaterThan(1);
      kept.header(other);
      expect(kept.joinedHeadings(doc)).toBe(first);
      expect(kept.header(doc)).toBe(kept.header(doc));
      const once = tight.joinedHeadings(doc);
      tight.header(other);
      const again = tight.joinedHeadings(doc);
      expect(again).not.toBe(once);
      expect(again).toEqual(once);
      expect(parsed(tight.header(doc))).toEqual(parsed(kept.header(doc)));
    } finally {
      kept.close();
      tight.close();
    }
  });
});
