import { describe, expect, it } from 'vitest';
import { analyzeBody } from './analyze.js';
import { extractWithRules, parseSitesConfig, rulesFor, withSiteRules } from './site-rules.js';

const PAGE = `<html lang="en"><head><title>GIN Indexes</title></head><body>
<nav><a href="/home.html">Home</a> Prev Up Next</nav>
<div id="content"><h1>GIN introduction</h1><p>GIN stands for generalized inverted index.</p>
<div class="ad">Buy now</div><h2>Operators</h2><p>Operator classes.</p></div>
<footer><h2>Site footer</h2>Copyright</footer></body></html>`;

describe('extractWithRules', () => {
  it('reads text and headings from the content selector, after drops, and links from the whole page', () => {
    const r = extractWithRules(PAGE, 'http://docs.test/gin.html', { contentSelector: '#content', dropSelectors: ['.ad'] });
    expect(r.extracted.text).toBe('GIN introduction GIN stands for generalized inverted index. Operators Operator classes.');
    expect(r.extracted.headings).toEqual(['GIN introduction', 'Operators']);
    expect(r.extracted.title).toBe('GIN Indexes');
    expect(r.extracted.links.map((l) => l.url)).toEqual(['http://docs.test/home.html']);
    expect(r).toMatchObject({ contentMatches: 1, dropped: 1 });
  });

  it('uses the whole page\'s text, saying why, when the page nests too deeply for the DOM the rules need', () => {
    const deep = `<html><body><nav>menu</nav>${'<div>'.repeat(3000)}deep text${'</div>'.repeat(3000)}<main>main text</main></body></html>`;
    const r = extractWithRules(deep, 'http://a.test/', { contentSelector: 'body', dropSelectors: ['nav'] });
    expect(r.skipped).toMatch(/^the page nests its elements too deeply for the rules/);
    expect(r.extracted.text).toBe('menu deep text main text');
    expect(extractWithRules('<html><body><nav>menu</nav><main>main text</main></body></html>', 'http://a.test/', { contentSelector: 'body', dropSelectors: ['nav'] }).skipped).toBeUndefined();
  });

  it('falls back to the whole body, after drops, when the content selector matches nothing', () => {
    const r = extractWithRules(PAGE, 'http://docs.test/gin.html', { contentSelector: 'main', dropSelectors: ['nav', 'footer'] });
    expect(r.contentMatches).toBe(0);
    expect(r.extracted.text).toBe('GIN introduction GIN stands for generalized inverted index. Buy now Operators Operator classes.');
  });
});

describe('analyzeBody with rules', () => {
  const input = { url: 'http://docs.test/gin.html', body: new TextEncoder().encode(PAGE), contentTypeHeader: 'text/html', contentType: 'text/html', xRobotsTag: [], agent: 'Gleaner', stripParams: [] };
  it('applies the rules the input carries and keeps the streaming result without them', () => {
    const rules = { 'http://docs.test': { contentSelector: '#content', dropSelectors: ['.ad'] } };
    expect(analyzeBody(withSiteRules(input, rules)).extracted.text).not.toContain('Prev Up Next');
    expect(analyzeBody(withSiteRules(input, {})).extracted.text).toContain('Prev Up Next');
    expect(rulesFor('http://other.test/x', rules)).toBeUndefined();
  });
});

describe('parseSitesConfig', () => {
  it('splits robots overrides from extraction rules, by origin', () => {
    expect(parseSitesConfig({ 'http://a.test/': 'never', 'http://b.test:8080/x': { robots: 'always', contentSelector: 'main', dropSelectors: ['.nav'] } }, 'cfg')).toEqual({
      sites: { 'http://a.test': 'never', 'http://b.test:8080': 'always' },
      extractRules: { 'http://b.test:8080': { contentSelector: 'main', dropSelectors: ['.nav'] } },
    });
  });

  it('refuses a bad selector, an unknown key and a bad origin in one line each', () => {
    expect(() => parseSitesConfig({ 'http://b.test': { contentSelector: 'div[' } }, 'cfg')).toThrow(/^cfg: sites\["http:\/\/b.test"\]\.contentSelector: "div\[" is not a valid CSS selector/);
    expect(() => parseSitesConfig({ 'http://b.test': { dropSelectors: ['ok', '>>'] } }, 'cfg')).toThrow(/dropSelectors\[1\]: ">>" is not a valid CSS selector/);
    expect(() => parseSitesConfig({ 'http://b.test': { contentSelectr: 'main' } }, 'cfg')).toThrow(/unknown key "contentSelectr"/);
    expect(() => parseSitesConfig({ 'b.test': 'never' }, 'cfg')).toThrow(/must be an http\(s\) origin/);
  });
});
