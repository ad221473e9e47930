import { describe, expect, it } from 'vitest';
import { definedNameOf, definedNameToken, isDefinedNameToken, qualifiedForms, tokenize } from './index.js';

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
  });

  it('are marked so that no token of text is one', () => {
    const term = definedNameToken('static_root');
    expect(isDefinedNameToken(term)).toBe(true);
    expect(definedNameOf(term)).toBe('static_root');
    for (const text of ['=static_root', 'a = b', '==x', 'STATIC_ROOT = "/srv"']) expect(tokenize(text).some(isDefinedNameToken)).toBe(false);
  });
});
