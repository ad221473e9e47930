import { describe, expect, it } from 'vitest';
import { MIN_EVIDENCE, NoopParams, SAMPLE_EVERY } from './noop-params.js';

const H = 'http://a.test';

describe('query parameters that change nothing (learned from duplicates)', () => {
  it('a parameter whose pages repeat the page without it is dropped from links after MIN_EVIDENCE of them', () => {
    const p = new NoopParams();
    for (let i = 0; i < MIN_EVIDENCE - 1; i++) p.countPage(`${H}/post-${i}/?print=1`, `${H}/post-${i}/`);
    expect(p.strip(`${H}/x/?print=1`)).toBe(`${H}/x/?print=1`);
    expect(p.countPage(`${H}/post-9/?print=1`, `${H}/post-9/`)).toEqual([`print=1`]);
    expect(p.strip(`${H}/x/?print=1`)).toBe(`${H}/x/`);
    expect(p.strip(`${H}/article?id=3&print=1`)).toBe(`${H}/article?id=3`);
    expect(p.strip(`${H}/article?PRINT=1&id=3`)).toBe(`${H}/article?id=3`);
    // Learned for its value: another value of print is not known to change nothing.
    expect(p.strip(`${H}/x/?print=2`)).toBe(`${H}/x/?print=2`);
    // Per host: another host's print pages may differ.
    expect(p.strip('http://b.test/x/?print=1')).toBe('http://b.test/x/?print=1');
  });
  it('the duplicate must be of the same URL without the parameter, in any order', () => {
    const p = new NoopParams();
    for (let i = 0; i < 10; i++) p.countPage(`${H}/shop?size=s&view=grid&color=c${i}`, `${H}/shop?color=c${i}&size=s`);
    expect(p.strip(`${H}/shop?view=grid`)).toBe(`${H}/shop`);
    // A duplicate of some other page (an empty listing like every other) is no evidence.
    const q = new NoopParams();
    for (let i = 0; i < 10; i++) q.countPage(`${H}/shop?color=red&page=${i + 3}`, `${H}/shop?color=red&page=2`);
    expect(q.strip(`${H}/shop?color=red&page=4`)).toBe(`${H}/shop?color=red&page=4`);
    // Nor evidence against: `/about/?print=1` a copy of `/about` (which `/about/` also is).
    for (let i = 0; i < 10; i++) q.countPage(`${H}/p${i}?print=1`, `${H}/p${i}`);
    for (let i = 0; i < 3; i++) q.countPage(`${H}/d${i}/?print=1`, `${H}/d${i}`);
    expect(q.strip(`${H}/x?print=1`)).toBe(`${H}/x`);
  });
  it('a parameter that selects content is never learned (?page=1 repeats the listing, ?page=2.. do not; ?id=N)', () => {
    const p = new NoopParams();
    for (let i = 0; i < 20; i++) p.countPage(`${H}/list${i}?page=1`, `${H}/list${i}`);
    for (let i = 0; i < 20; i++) for (let n = 2; n < 5; n++) p.countPage(`${H}/list${i}?page=${n}`);
    expect(p.strip(`${H}/list1?page=3`)).toBe(`${H}/list1?page=3`);
    for (let i = 0; i < 50; i++) p.countPage(`${H}/article?id=${i}`);
    expect(p.strip(`${H}/article?id=7`)).toBe(`${H}/article?id=7`);
  });
  it('a page without the parameter stored as a duplicate of the variant fetched before it is evidence too', () => {
    const p = new NoopParams();
    for (let i = 0; i < MIN_EVIDENCE; i++) {
      p.countPage(`${H}/p${i}?print=1`);
      p.countPage(`${H}/p${i}`, `${H}/p${i}?print=1`);
    }
    expect(p.strip(`${H}/q?print=1`)).toBe(`${H}/q`);
  });
  it('a name is dropped whatever its value only after copies with MIN_EVIDENCE values (?replytocom=N, not ?ref=main)', () => {
    const p = new NoopParams();
    for (let i = 0; i < MIN_EVIDENCE; i++) p.countPage(`${H}/post-${i}/?replytocom=${i + 10}`, `${H}/post-${i}/`);
    expect(p.strip(`${H}/post-9/?replytocom=99`)).toBe(`${H}/post-9/`);
    // A code host: `?ref=main` (the default branch) copies the plain page, `?ref=feature` does not.
    const q = new NoopParams();
    for (let i = 0; i < 10; i++) q.countPage(`${H}/repo${i}/tree?ref=main`, `${H}/repo${i}/tree`);
    expect(q.strip(`${H}/repo11/tree?ref=main`)).toBe(`${H}/repo11/tree`);
    expect(q.strip(`${H}/repo11/tree?ref=feature`)).toBe(`${H}/repo11/tree?ref=feature`);
  });
  it('unlearned when pages carrying it turn out to be new content (a site whose ?lang=de pages are German)', () => {
    const p = new NoopParams();
    for (let i = 0; i < MIN_EVIDENCE; i++) p.countPage(`${H}/p${i}?lang=de`, `${H}/p${i}`);
    expect(p.strip(`${H}/q?lang=de`)).toBe(`${H}/q`);
    p.countPage(`${H}/q2?lang=de`);
    expect(p.strip(`${H}/q?lang=de`)).toBe(`${H}/q?lang=de`);
  });
  it('a learned parameter is still asked as linked in one link of SAMPLE_EVERY, so that later pages can unlearn it', () => {
    const p = new NoopParams();
    for (let i = 0; i < MIN_EVIDENCE; i++) p.countPage(`${H}/p${i}?lang=de`, `${H}/p${i}`);
    const asked = Array.from({ length: 3 * SAMPLE_EVERY }, (_, i) => p.strip(`${H}/later${i}?lang=de`));
    const sampled = asked.filter((url) => url.includes('?lang=de'));
    expect(sampled).toEqual([`${H}/later${SAMPLE_EVERY - 1}?lang=de`, `${H}/later${2 * SAMPLE_EVERY - 1}?lang=de`, `${H}/later${3 * SAMPLE_EVERY - 1}?lang=de`]);
    // The sample was German after all: one fresh page is enough against five copies (5 / 6 < 90%).
    p.countPage(sampled[0]!);
    expect(p.strip(`${H}/next?lang=de`)).toBe(`${H}/next?lang=de`);
  });
});
