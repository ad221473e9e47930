import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getEncoding } from 'encoding-sniffer/sniffer';
import iconv from 'iconv-lite';
import { charsetFromContentType, charsetFromMeta, decodeBody, normalizeCharset } from './charset.js';

// Real encoded bytes, written out by hand from the code tables (not produced by the decoder under test).
const CP1251_PRIVET_MIR = [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2, 0x2c, 0x20, 0xec, 0xe8, 0xf0]; // Привет, мир
const KOI8R_PRIVET = [0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]; // Привет
const GBK_ZHONGWEN = [0xd6, 0xd0, 0xce, 0xc4]; // 中文
const SJIS_NIHONGO = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]; // 日本語
const EUCJP_NIHON = [0xc6, 0xfc, 0xcb, 0xdc]; // 日本

const ascii = (s: string): number[] => [...Buffer.from(s, 'latin1')];
const page = (head: string, body: number[]): Uint8Array =>
  Uint8Array.from([...ascii(`<html><head>${head}</head><body><p>`), ...body, ...ascii('</p></body></html>')]);

describe('charset from the Content-Type header', () => {
  it('decodes windows-1251 named in the header', () => {
    const d = decodeBody(Uint8Array.from(CP1251_PRIVET_MIR), 'text/html; charset=windows-1251');
    expect(d).toEqual({ text: 'Привет, мир', charset: 'windows-1251', source: 'header' });
  });
  it('decodes GBK, also under its gb2312 label, and quoted', () => {
    expect(decodeBody(Uint8Array.from(GBK_ZHONGWEN), 'text/html;charset=GBK').text).toBe('中文');
    expect(decodeBody(Uint8Array.from(GBK_ZHONGWEN), 'text/html; charset="gb2312"')).toMatchObject({ text: '中文', charset: 'gbk' });
  });
  it('decodes Shift_JIS, EUC-JP and KOI8-R', () => {
    expect(decodeBody(Uint8Array.from(SJIS_NIHONGO), 'text/plain; charset=Shift_JIS').text).toBe('日本語');
    expect(decodeBody(Uint8Array.from(EUCJP_NIHON), 'text/html; charset=euc-jp').text).toBe('日本');
    expect(decodeBody(Uint8Array.from(KOI8R_PRIVET), 'text/html; charset=koi8-r').text).toBe('Привет');
  });
  it('beats a META that says otherwise', () => {
    const d = decodeBody(page('<meta charset="utf-8">', CP1251_PRIVET_MIR), 'text/html; charset=windows-1251');
    expect(d.charset).toBe('windows-1251');
    expect(d.text).toContain('Привет, мир');
  });
  it('falls through an unknown label to META', () => {
    const d = decodeBody(page('<meta charset="gbk">', GBK_ZHONGWEN), 'text/html; charset=no-such-charset');
    expect(d).toMatchObject({ charset: 'gbk', source: 'meta' });
  });
  it('takes a label that names a property of every object (constructor, __proto__) for no charset, not a crash', () => {
    for (const label of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(decodeBody(page('<meta charset="gbk">', GBK_ZHONGWEN), `text/html; charset=${label}`), label).toMatchObject({ charset: 'gbk', source: 'meta' });
      expect(decodeBody(page(`<meta charset="${label}">`, ascii('plain words')), 'text/html'), label).toMatchObject({ charset: 'utf-8', source: 'default' });
      expect(normalizeCharset(label), label).toBeUndefined();
    }
  });
});

describe('charset from META in the first 1,024 bytes', () => {
  it('reads <meta charset>', () => {
    const d = decodeBody(page('<meta charset="Shift_JIS">', SJIS_NIHONGO), 'text/html');
    expect(d).toMatchObject({ charset: 'shift_jis', source: 'meta' });
    expect(d.text).toContain('<p>日本語</p>');
  });
  it('reads <meta http-equiv=Content-Type content="...; charset=...">', () => {
    const d = decodeBody(page('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1251">', CP1251_PRIVET_MIR));
    expect(d).toMatchObject({ charset: 'windows-1251', source: 'meta' });
    expect(d.text).toContain('Привет, мир');
  });
  it('reads unquoted and self-closed forms', () => {
    expect(charsetFromMeta(Uint8Array.from(ascii('<meta charset=gbk/>')))).toBe('gbk');
    expect(charsetFromMeta(Uint8Array.from(ascii("<meta http-equiv=content-type content='text/html;charset=koi8-r'>")))).toBe('koi8-r');
  });
  it('the prescan ignores a META after the first 1,024 bytes (bytes not UTF-8 then read on: below)', () => {
    const bytes = Uint8Array.from([...ascii('<!--' + 'x'.repeat(1100) + '--><meta charset="gbk">'), ...GBK_ZHONGWEN]);
    expect(charsetFromMeta(bytes)).toBeUndefined();
    expect(decodeBody(bytes)).toMatchObject({ charset: 'gbk', source: 'meta' });
  });
  it('treats a META claiming UTF-16 as UTF-8', () => {
    expect(decodeBody(Uint8Array.from(ascii('<meta charset="utf-16"><p>hi</p>')))).toMatchObject({ charset: 'utf-8', text: '<meta charset="utf-16"><p>hi</p>' });
  });
});

describe('the WHATWG prescan, not a pattern over the bytes', () => {
  const utf8Page = (head: string): Uint8Array => Uint8Array.from([...ascii(`<html><head>${head}</head><body><p>`), ...Buffer.from('Привет, мир'), ...ascii('</p></body></html>')]);
  it('ignores a <meta charset> inside a comment', () => {
    expect(decodeBody(utf8Page('<!-- <meta charset=windows-1251> --><meta charset="utf-8">'))).toMatchObject({ charset: 'utf-8', source: 'meta' });
    const d = decodeBody(utf8Page('<!-- old: <meta charset=windows-1251> -->'));
    expect(d).toMatchObject({ charset: 'utf-8', source: 'default' });
    expect(d.text).toContain('<p>Привет, мир</p>');
  });
  it('ignores charset= in the content of a META that is not http-equiv=content-type', () => {
    const d = decodeBody(utf8Page('<meta name="description" content="pages in charset=koi8-r and others">'));
    expect(d).toMatchObject({ charset: 'utf-8', source: 'default' });
    expect(d.text).toContain('<p>Привет, мир</p>');
  });
  it('reads the encoding of an XML declaration', () => {
    const bytes = Uint8Array.from([...ascii('<?xml version="1.0" encoding="windows-1251"?><p>'), ...CP1251_PRIVET_MIR]);
    expect(decodeBody(bytes)).toMatchObject({ charset: 'windows-1251', source: 'xml', text: '<?xml version="1.0" encoding="windows-1251"?><p>Привет, мир' });
  });
});

describe('the prescan stopping early', () => {
  it('finds what the whole 1,024-byte prescan finds', () => {
    const fragment = fc.constantFrom(
      '<meta charset="gbk">', '<meta charset=koi8-r>', '<!-- <meta charset=windows-1251> -->', '<meta http-equiv="content-type" content="text/html; charset=shift_jis">',
      '<meta content="charset=euc-jp">', '<p>', 'text ', '<!--', '-->', '<?xml version="1.0" encoding="windows-1251"?>', '<a href="x">', '\ufeff', 'é',
    );
    const page = fc.array(fc.oneof(fragment, fc.string({ maxLength: 80 })), { maxLength: 60 }).map((parts) => new Uint8Array(Buffer.from(parts.join(''))));
    const header = fc.constantFrom(undefined, 'text/html', 'text/html; charset=windows-1252', 'text/html; charset=bogus');
    fc.assert(
      fc.property(page, header, (bytes, contentType) => {
        const label = charsetFromContentType(contentType);
        const whole = getEncoding(bytes.subarray(0, 1024), { defaultEncoding: 'utf-8', ...(label ? { transportLayerEncodingLabel: label } : {}) });
        expect(decodeBody(bytes, contentType).charset).toBe(whole.toLowerCase());
      }),
    );
  });
});

describe('windows-1252 bytes 0x80-0x9F (Node 20 TextDecoder reads them as ISO-8859-1 C1 controls)', () => {
  // The code page table, by hand. The five bytes it leaves undefined become U+FFFD (iconv-lite); no
  // byte may become a C1 control character (U+0080-U+009F), which is what leaked into the index.
  const CP1252: Record<number, string> = {
    0x80: '\u20ac', 0x82: '\u201a', 0x83: '\u0192', 0x84: '\u201e', 0x85: '\u2026', 0x86: '\u2020', 0x87: '\u2021',
    0x88: '\u02c6', 0x89: '\u2030', 0x8a: '\u0160', 0x8b: '\u2039', 0x8c: '\u0152', 0x8e: '\u017d',
    0x91: '\u2018', 0x92: '\u2019', 0x93: '\u201c', 0x94: '\u201d', 0x95: '\u2022', 0x96: '\u2013', 0x97: '\u2014',
    0x98: '\u02dc', 0x99: '\u2122', 0x9a: '\u0161', 0x9b: '\u203a', 0x9c: '\u0153', 0x9e: '\u017e', 0x9f: '\u0178',
  };
  const bytes = Array.from({ length: 32 }, (_, i) => 0x80 + i);
  it('decodes each byte to its code page character, under the header and under META iso-8859-1', () => {
    const expected = bytes.map((b) => CP1252[b] ?? '\ufffd').join('');
    expect(decodeBody(Uint8Array.from(bytes), 'text/html; charset=windows-1252')).toEqual({ text: expected, charset: 'windows-1252', source: 'header' });
    expect(decodeBody(page('<meta charset="iso-8859-1">', bytes)).text).toContain(`<p>${expected}</p>`);
    expect(decodeBody(page('<meta charset="iso-8859-1">', bytes)).text).not.toMatch(/[\u0080-\u009f]/);
  });
  it('keeps the apostrophe of l’argument and the em dash', () => {
    const legacy = [...ascii('l'), 0x92, ...ascii('argument '), 0x97, ...ascii(' fin')];
    expect(decodeBody(Uint8Array.from(legacy), 'text/html; charset=ISO-8859-1').text).toBe('l\u2019argument \u2014 fin');
  });
});

describe('byte order marks', () => {
  it('detects UTF-8, UTF-16LE and UTF-16BE and strips the BOM', () => {
    expect(decodeBody(Uint8Array.from([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toEqual({ text: 'hi', charset: 'utf-8', source: 'bom' });
    expect(decodeBody(Uint8Array.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toEqual({ text: 'hi', charset: 'utf-16le', source: 'bom' });
    expect(decodeBody(Uint8Array.from([0xfe, 0xff, 0x04, 0x1f]))).toEqual({ text: 'П', charset: 'utf-16be', source: 'bom' });
  });
  it('beats the header (WHATWG order)', () => {
    expect(decodeBody(Uint8Array.from([0xef, 0xbb, 0xbf, 0xd0, 0x9f]), 'text/html; charset=windows-1251')).toMatchObject({ text: 'П', source: 'bom' });
  });
});

describe('default', () => {
  it('is windows-1252, the WHATWG default, when a few bytes are not UTF-8 (too few to detect a charset from)', () => {
    expect(decodeBody(Uint8Array.from([0x68, 0xff, 0x69]))).toEqual({ text: 'h\u00ffi', charset: 'windows-1252', source: 'detected' });
  });
  it('round-trips any UTF-8 text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        if (s.startsWith('\ufeff')) return;
        expect(decodeBody(new TextEncoder().encode(s), 'text/html').text).toBe(s);
      }),
    );
  });
});

describe('what the WHATWG order leaves: labels only TextDecoder knows, a late <meta>, UTF-16 without a BOM', () => {
  // ISO-2022-JP for 日本: ESC $ B, JIS X 0208 0x467C 0x4B5C, ESC ( B.
  const ISO2022JP_NIHON = [0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x1b, 0x28, 0x42];
  it('a header charset encoding-sniffer lacks (iso-2022-jp) is still the header charset', () => {
    expect(decodeBody(page('', ISO2022JP_NIHON), 'text/html; charset=iso-2022-jp')).toMatchObject({ charset: 'iso-2022-jp', source: 'header' });
    expect(decodeBody(page('', ISO2022JP_NIHON), 'text/html; charset=csISO2022JP').text).toContain('<p>日本</p>');
    expect(normalizeCharset('csISO2022JP')).toBe('iso-2022-jp');
  });
  it('bytes that are not UTF-8 take a <meta charset> that comes after the first kilobyte', () => {
    const late = page(`<style>${' '.repeat(1500)}</style><meta charset="windows-1251">`, CP1251_PRIVET_MIR);
    expect(decodeBody(late)).toMatchObject({ charset: 'windows-1251', source: 'meta' });
    expect(decodeBody(late).text).toContain('<p>Привет, мир</p>');
    // Bytes that are UTF-8 stay UTF-8: the late scan costs nothing on the pages that need none.
    const utf8 = Uint8Array.from([...page(`<style>${' '.repeat(1500)}</style><meta charset="windows-1251">`, []), ...Buffer.from('Привет', 'utf8')]);
    expect(decodeBody(utf8)).toMatchObject({ charset: 'utf-8', source: 'default' });
  });
  it('UTF-16 without a byte order mark is told by its zero bytes, little- and big-endian', () => {
    const html = '<html><head><title>Héllo</title></head><body><p>Grüße aus Köln</p></body></html>';
    const le = Buffer.from(html, 'utf16le');
    const be = Buffer.from(le).swap16();
    expect(decodeBody(new Uint8Array(le))).toEqual({ text: html, charset: 'utf-16le', source: 'default' });
    expect(decodeBody(new Uint8Array(be))).toEqual({ text: html, charset: 'utf-16be', source: 'default' });
  });
});

describe('bytes that name no charset and are not UTF-8: the charset detected from them', () => {
  // Text encoded by iconv-lite's encoders; what is tested is which charset is detected and read.
  const encoded = (text: string, charset: string): Uint8Array => Uint8Array.from(iconv.encode(`<html><head><title>t</title></head><body><p>${text}</p></body></html>`, charset));
  const cases: [string, string, string][] = [
    ['windows-1252', 'windows-1252', 'Le système de fichiers a été configuré pour être accessible à distance. Vérifiez les paramètres réseau.'],
    ['windows-1252', 'windows-1252', 'Die Größe der Datei überschreitet das zulässige Maximum. Bitte wählen Sie eine kleinere Datei.'],
    ['shift_jis', 'shift_jis', '日本語のテキストです。検索エンジンのテスト。'],
    ['gbk', 'gb18030', '中文文本测试搜索引擎，这是一个简单的页面。'],
    ['big5', 'big5', '繁體中文文本測試搜尋引擎，這是一個簡單的頁面。'],
    ['euc-kr', 'euc-kr', '한국어 텍스트 검색 엔진 테스트 페이지입니다.'],
    ['windows-1251', 'windows-1251', 'Русский текст для проверки поисковой системы на странице.'],
  ];
  it('reads an unlabelled legacy page in the charset its bytes are in', () => {
    for (const [encoding, charset, text] of cases) {
      const d = decodeBody(encoded(text, encoding), 'text/html');
      expect(d, encoding).toMatchObject({ charset, source: 'detected' });
      expect(d.text, encoding).toContain(`<p>${text}</p>`);
    }
  });
  it('keeps a UTF-8 page with a stray byte UTF-8, and never second-guesses a charset the page names', () => {
    const utf8 = Uint8Array.from([...Buffer.from('<p>Grüße aus Köln, déjà vu, naïve café '), 0xe9, ...Buffer.from(' fin</p>')]);
    expect(decodeBody(utf8)).toMatchObject({ charset: 'utf-8', source: 'default' });
    expect(decodeBody(utf8).text).toContain('Grüße aus Köln');
    const lied = encoded(cases[0]![2], 'windows-1252');
    expect(decodeBody(lied, 'text/html; charset=utf-8')).toMatchObject({ charset: 'utf-8', source: 'header' });
  });
  it('gives any bytes a charset it decodes, without throwing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const d = decodeBody(bytes);
        expect(typeof d.text).toBe('string');
        expect(normalizeCharset(d.charset)).toBe(d.charset);
      }),
    );
  });
});

describe('helpers', () => {
  it('normalizeCharset gives WHATWG names or undefined', () => {
    expect(normalizeCharset('CP1251')).toBe('windows-1251');
    expect(normalizeCharset('iso-8859-1')).toBe('windows-1252');
    expect(normalizeCharset('x-user-defined')).toBe('windows-1252');
    expect(normalizeCharset('bogus')).toBeUndefined();
    expect(normalizeCharset('')).toBeUndefined();
  });
  it('charsetFromContentType reads the parameter', () => {
    expect(charsetFromContentType('text/html')).toBeUndefined();
    expect(charsetFromContentType(undefined)).toBeUndefined();
    expect(charsetFromContentType('text/html; Charset=UTF-8; foo=bar')).toBe('UTF-8');
    expect(charsetFromContentType('text/html; charset=')).toBeUndefined();
  });
});
