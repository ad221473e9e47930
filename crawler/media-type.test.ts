import { describe, expect, it } from 'vitest';
import { contentTypeValue, extractMimeType, mediaType, parseMimeType, splitHeaderValues } from './media-type.js';

describe('extractMimeType (WHATWG Fetch "extract a MIME type")', () => {
  it('answers a value asked again as the first time, with an answer no caller can change', () => {
    const first = extractMimeType('text/html; charset=iso-8859-1');
    expect(first).toEqual({ essence: 'text/html', charset: 'iso-8859-1' });
    const again = extractMimeType('text/html; charset=iso-8859-1');
    expect(again).toEqual(first);
    expect(Object.isFrozen(again)).toBe(true);
    const long = `text/plain; x="${'a'.repeat(300)}"`;
    expect(extractMimeType(long)).toEqual({ essence: 'text/plain' });
  });

  it('reads one value: essence lower-cased, charset kept as given', () => {
    expect(extractMimeType('Text/HTML; Charset="UTF-8"')).toEqual({ essence: 'text/html', charset: 'UTF-8' });
    expect(extractMimeType('application/pdf')).toEqual({ essence: 'application/pdf' });
  });

  it('a repeated header: the last valid value wins, whichever order', () => {
    expect(mediaType(['image/png', 'text/html'])).toBe('text/html');
    expect(mediaType(['text/html', 'image/png'])).toBe('image/png');
    expect(mediaType(['text/html; charset=utf-8', 'application/json'])).toBe('application/json');
  });

  it('values combined in one header are split on commas outside quotes', () => {
    expect(mediaType('image/png, text/html')).toBe('text/html');
    expect(extractMimeType('text/html; charset="a,b", text/html')).toEqual({ essence: 'text/html', charset: 'a,b' });
    expect(splitHeaderValues(['a/b; x="1,2"', ' c/d , e/f'])).toEqual(['a/b; x="1,2"', 'c/d', 'e/f']);
  });

  it('skips values that do not parse and */*', () => {
    expect(mediaType(['text/html', 'nonsense'])).toBe('text/html');
    expect(mediaType(['text/plain', '*/*'])).toBe('text/plain');
    expect(mediaType(['text/plain', ''])).toBe('text/plain');
    expect(mediaType(['te xt/html'])).toBe('');
    expect(mediaType(['text/'])).toBe('');
    expect(mediaType(['/html'])).toBe('');
  });

  it('keeps an earlier charset while the essence stays the same, drops it when the essence changes', () => {
    expect(extractMimeType(['text/html; charset=koi8-r', 'text/html'])).toEqual({ essence: 'text/html', charset: 'koi8-r' });
    expect(extractMimeType(['text/html; charset=koi8-r', 'text/html; charset=gbk'])).toEqual({ essence: 'text/html', charset: 'gbk' });
    expect(extractMimeType(['text/plain; charset=koi8-r', 'text/html'])).toEqual({ essence: 'text/html' });
  });

  it('no header or nothing valid is no media type', () => {
    expect(extractMimeType(undefined)).toBeUndefined();
    expect(mediaType(undefined)).toBe('');
    expect(mediaType([])).toBe('');
    expect(contentTypeValue(['garbage'])).toBeUndefined();
  });

  it('contentTypeValue writes the decision as one header value a charset reader understands', () => {
    expect(contentTypeValue(['image/png; charset=x', 'text/html'])).toBe('text/html');
    expect(contentTypeValue(['text/html; charset=koi8-r', 'text/html'])).toBe('text/html; charset=koi8-r');
  });

  it('parameters: first of a name wins, names lower-cased, bad names and empty values ignored', () => {
    const p = parseMimeType('text/html;CHARSET=a; charset=b; bad name=x; empty=; q="x\\"y"; flag')!;
    expect(p.essence).toBe('text/html');
    expect([...p.params]).toEqual([
      ['charset', 'a'],
      ['q', 'x"y'],
    ]);
  });
});
