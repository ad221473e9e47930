import { describe, expect, it } from 'vitest';
import { camelCaseMember, definedNameOf, isConstantName, definedNameToken, isDefinedNameToken, memberNameToken, qualifiedForms, tokenize } from './index.js';

describe('defined-name terms', () => {
  it('name a qualified name by each shorter qualification down to two parts', () => {
    expect(qualifiedForms('django.db.models.query.QuerySet.annotate')).toEqual([
      'django.db.models.query.QuerySet.annotate',
      'db.models.query.QuerySet.annotate',
      'models.query.QuerySet.annotate',
      'query.QuerySet.annotate',
      'QuerySet.annotate',
    ]);
    expect(qualifiedForms('std::collections::HashMap')).toEqual(['std::collections::HashMap', 'collections::HashMap']);
    expect(qualifiedForms('os.path')).toEqual(['os.path']);
    expect(qualifiedForms('STATIC_ROOT')).toEqual(['STATIC_ROOT']);
    // A member after `#` is qualified as after a dot (Ruby's `Net::HTTP#get`).
    expect(qualifiedForms('Net::HTTP#get')).toEqual(['Net::HTTP#get', 'HTTP#get']);
    // And after one `:` (Erlang's `wx:wxFrame:new` is no module, but `a:b:c` is read as `a.b.c`).
    expect(qualifiedForms('a:b_c:d')).toEqual(['a:b_c:d', 'b_c:d']);
    expect(camelCaseMember('wxFrame:setTitle')).toBe('setTitle');
  });

  it("name a qualified name's camel-case member alone, as written", () => {
    expect(camelCaseMember('fs.readFileSync')).toBe('readFileSync');
    expect(camelCaseMember('std::collections::HashMap')).toBe('HashMap');
    expect(camelCaseMember('os.path.join')).toBeUndefined();
    expect(camelCaseMember('Buffer.from')).toBeUndefined();
    expect(camelCaseMember('setTimeout')).toBeUndefined();
    // Its term keeps the capitals: no folded token of text or query meets it.
    expect(memberNameToken('readFileSync')).toBe('=readFileSync');
    expect(tokenize('readFileSync fs.readFileSync').some((t) => t === 'readFileSync' || isDefinedNameToken(t))).toBe(false);
  });

  it('tell a name in capitals: three characters or more, two letters, capitals and digits only', () => {
    expect(['DEBUG', 'HISTSIZE', 'PS1', 'CMP0077', 'ÉTAT'].every(isConstantName)).toBe(true);
    expect(['ID', 'A12', 'Debug', 'debug', 'STATIC_ROOT', 'C++', 'X11Y'].filter(isConstantName)).toEqual(['X11Y']);
  });

  it('are marked so that no token of text is one', () => {
    const term = definedNameToken('static_root');
    expect(isDefinedNameToken(term)).toBe(true);
    expect(definedNameOf(term)).toBe('static_root');
    for (const text of ['=static_root', 'a = b', '==x', 'STATIC_ROOT = "/srv"']) expect(tokenize(text).some(isDefinedNameToken)).toBe(false);
  });
});
