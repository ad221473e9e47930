import { describe, expect, it } from 'vitest';
import { readForm } from './form.js';

describe('readForm', () => {
  it('reads a form body defensively: first values, known modes, a default agent, LF line ends', () => {
    const form = readForm({ robots: 'User-agent: *\r\nDisallow: /x\r\n', urls: ['/a', '/b'], mode: 'nonsense', agent: '   ' });
    expect(form).toEqual({ source: 'paste', robots: 'User-agent: *\nDisallow: /x\n', url: '', urls: '/a', agent: 'Gleaner', mode: 'rfc9309' });
    expect(readForm({ mode: 'draft' }).mode).toBe('draft');
  });

  it('a URL alone means "fetch it", unless paste was chosen', () => {
    expect(readForm({ url: 'example.com' }).source).toBe('url');
    expect(readForm({ url: 'example.com', source: 'paste' }).source).toBe('paste');
    expect(readForm({ source: 'url' }).source).toBe('url');
  });

  it('caps the agent and the URL', () => {
    const form = readForm({ agent: 'A'.repeat(500), url: 'http://x.test/' + 'p'.repeat(5000) });
    expect(form.agent).toHaveLength(100);
    expect(form.url).toHaveLength(2048);
  });
});
