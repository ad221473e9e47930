import { describe, expect, it } from 'vitest';
import { contextTitle, parentContext, type ContextPage } from './parent-context.js';

const host = (url: string) => new URL(url).host;
const same = (title: string) => title;

describe('contextTitle', () => {
  it("takes a manual's numbering off a parent's title", () => {
    expect(contextTitle('Chapter 70. GIN Indexes')).toBe('GIN Indexes');
    expect(contextTitle('Part VII. Internals')).toBe('Internals');
    expect(contextTitle('F.3. btree_gin — GIN operator classes with B-tree behavior')).toBe('btree_gin — GIN operator classes with B-tree behavior');
    expect(contextTitle('31.11. Quick Setup')).toBe('Quick Setup');
    expect(contextTitle('Appendix B. Date/Time Support')).toBe('Date/Time Support');
  });

  it('keeps a title that only starts like a number', () => {
    expect(contextTitle('A Brief History of PostgreSQL')).toBe('A Brief History of PostgreSQL');
    expect(contextTitle('Chapter and verse')).toBe('Chapter and verse');
    expect(contextTitle('I/O functions')).toBe('I/O functions');
    expect(contextTitle('  Generic Operating System Services ')).toBe('Generic Operating System Services');
  });
});

describe('parentContext', () => {
  const pages = new Map<string, ContextPage>([
    ['http://d.test/', { title: 'Example Manual', up: undefined }],
    ['http://d.test/gin.html', { title: 'Chapter 70. GIN Indexes', up: 'http://d.test/' }],
    ['http://d.test/gin-intro.html', { title: '70.1. Introduction', up: 'http://d.test/gin.html' }],
    ['http://d.test/gin-tips.html', { title: '70.5. GIN Tips and Tricks', up: 'http://d.test/gin.html' }],
    ['http://d.test/gin-using.html', { title: '70.6. Using indexes: GIN', up: 'http://d.test/gin.html' }],
    ['http://d.test/loop.html', { title: 'Loop', up: 'http://d.test/loop.html' }],
    ['http://other.test/child.html', { title: 'Child', up: 'http://d.test/gin.html' }],
  ]);
  const contextOf = (url: string) => parentContext(url, pages.get(url)!, (u) => pages.get(u), host, same);

  it("is the parent's title, numbering off", () => {
    expect(contextOf('http://d.test/gin-intro.html')).toBe('GIN Indexes');
    expect(contextOf('http://d.test/gin-tips.html')).toBe('GIN Indexes');
  });

  it("is none under the top of a hierarchy (the site's name), for a page of its own, another host's parent, or a title that says it already", () => {
    expect(contextOf('http://d.test/gin.html')).toBeUndefined();
    expect(contextOf('http://d.test/')).toBeUndefined();
    expect(contextOf('http://d.test/loop.html')).toBeUndefined();
    expect(contextOf('http://other.test/child.html')).toBeUndefined();
    expect(contextOf('http://d.test/gin-using.html')).toBeUndefined();
  });

  it("reads the parent's title as the site's affixes leave it", () => {
    const suffixed = new Map<string, ContextPage>([
      ['http://p.test/os.html', { title: 'os — Miscellaneous interfaces — Python docs', up: 'http://p.test/allos.html' }],
      ['http://p.test/allos.html', { title: 'Generic Operating System Services — Python docs', up: 'http://p.test/library/' }],
    ]);
    const clean = (t: string) => t.replace(/ — Python docs$/, '');
    expect(parentContext('http://p.test/os.html', suffixed.get('http://p.test/os.html')!, (u) => suffixed.get(u), host, clean)).toBe('Generic Operating System Services');
  });
});
