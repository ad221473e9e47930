import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isUnknownType, sniffedType } from './sniff.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('sniffedType (WHATWG MIME Sniffing, for a crawler)', () => {
  it('reads a body with no usable type by its first bytes', () => {
    expect(sniffedType('', bytes('\xef\xbb\xbf  \n<!DOCTYPE html><html>'))).toBe('text/html');
    expect(sniffedType('', bytes('<HTML><body>x'))).toBe('text/html');
    expect(sniffedType('unknown/unknown', bytes('<p>one paragraph'))).toBe('text/html');
    expect(sniffedType('', bytes('<!-- a comment first --><div>'))).toBe('text/html');
    expect(sniffedType('', bytes('<pre>not an opening the rules know'))).toBe('text/plain');
    expect(sniffedType('', bytes('<?xml version="1.0"?><rss/>'))).toBe('text/xml');
    expect(sniffedType('', bytes('%PDF-1.7 ...'))).toBe('application/pdf');
    expect(sniffedType('', bytes('\x89PNG\r\n\x1a\n\x00\x00'))).toBe('image/png');
    expect(sniffedType('application/unknown', bytes('plain words'))).toBe('text/plain');
    expect(sniffedType('', bytes('words then \x00 a NUL'))).toBe('application/octet-stream');
    expect(sniffedType('', bytes(''))).toBe('');
  });
  it('lets a binary signature with binary bytes override a declared text type, and nothing else', () => {
    expect(sniffedType('text/html', bytes('\xff\xd8\xff\xe0\x00\x10JFIF'))).toBe('image/jpeg');
    expect(sniffedType('text/plain', bytes('PK\x03\x04zip'))).toBe('application/zip');
    expect(sniffedType('text/plain', bytes('GIF89a is a format'))).toBe('text/plain');
    expect(sniffedType('text/html', bytes('<p>fine</p>'))).toBe('text/html');
    expect(sniffedType('application/pdf', bytes('\x89PNG\r\n\x1a\n'))).toBe('application/pdf');
  });
  it('reads a PDF sent as text as a PDF, and binary bytes sent as text/plain as binary', () => {
    expect(sniffedType('text/html', bytes('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj'))).toBe('application/pdf');
    expect(sniffedType('text/plain', bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3'))).toBe('application/pdf');
    expect(sniffedType('text/plain', bytes('random \x01\x02 bytes'))).toBe('application/octet-stream');
    expect(sniffedType('text/html', bytes('<p>a page with a stray \x01 byte</p>'))).toBe('text/html');
  });
  it('reads a head full of binary bytes sent as HTML as a download, not a UTF-16 page or a few stray bytes', () => {
    const random = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) % 256);
    expect(sniffedType('text/html', random)).toBe('application/octet-stream');
    expect(sniffedType('application/xhtml+xml', random)).toBe('application/octet-stream');
    // A DOS file's end-of-file marks and a form of control bytes: fifteen are still a page.
    expect(sniffedType('text/html', bytes(`<p>${'words \x1a'.repeat(15)}</p>`))).toBe('text/html');
    expect(sniffedType('text/html', bytes(`<p>${'words \x1a'.repeat(16)}</p>`))).toBe('application/octet-stream');
    // UTF-16, with its byte order mark or without: every ASCII letter comes with a zero byte.
    const utf16 = (text: string, bom: boolean) => new Uint8Array(Buffer.concat([Buffer.from(bom ? [0xff, 0xfe] : []), Buffer.from(text, 'utf16le')]));
    const page = '<!doctype html><title>UTF-16</title><p>a page in UTF-16</p>';
    expect(sniffedType('text/html', utf16(page, true))).toBe('text/html');
    expect(sniffedType('text/html', utf16(page, false))).toBe('text/html');
    const chinese = '<!doctype html><html lang="zh"><head><meta charset="utf-16"><title>一丁七万丈三上下</title></head><body><p>丌不与丐丑专且丕世丘丙业丛东丝丞</p></body></html>';
    expect(sniffedType('text/html', utf16(chinese, false))).toBe('text/html');
    expect(sniffedType('text/html', new Uint8Array(Buffer.from(chinese, 'utf16le').swap16()))).toBe('text/html');
  });
  it('never turns a declared HTML page of text into anything else (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii' }), (s) => {
        // (A text that opens with `%PDF-` is a PDF, above.)
        const text = s.replace(/[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f]/g, ' ').replace(/^%PDF-/, '%pdf-');
        expect(sniffedType('text/html', bytes(text))).toBe('text/html');
      }),
    );
  });
});

describe('application/octet-stream at a URL that names a page or a document', () => {
  it('is read when the URL looks like a page or a PDF, not when it names a download', () => {
    for (const url of ['http://s.test/', 'http://s.test/docs/intro', 'http://s.test/a/report.v2.HTML', 'http://s.test/x.php?id=1', 'http://s.test/handbook.pdf']) {
      expect(isUnknownType('application/octet-stream', url), url).toBe(true);
    }
    for (const url of ['http://s.test/setup.iso', 'http://s.test/data.zip', 'http://s.test/photo.jpg', 'http://s.test/a.tar.gz']) {
      expect(isUnknownType('application/octet-stream', url), url).toBe(false);
    }
    expect(isUnknownType('application/octet-stream')).toBe(false);
  });
  it('is HTML or a PDF when its bytes say so, and stays a download otherwise', () => {
    expect(sniffedType('application/octet-stream', bytes('<!DOCTYPE html><title>t</title>'), 'http://s.test/page.html')).toBe('text/html');
    expect(sniffedType('application/octet-stream', bytes('%PDF-1.7\n'), 'http://s.test/handbook.pdf')).toBe('application/pdf');
    expect(sniffedType('application/octet-stream', bytes('plain words, no markup'), 'http://s.test/notes')).toBe('application/octet-stream');
    expect(sniffedType('application/octet-stream', bytes('<html>\x00\x01\x02'), 'http://s.test/blob')).toBe('application/octet-stream');
    // Where the URL names a download, the bytes are not asked.
    expect(sniffedType('application/octet-stream', bytes('<!DOCTYPE html>'), 'http://s.test/a.zip')).toBe('application/octet-stream');
  });
});
