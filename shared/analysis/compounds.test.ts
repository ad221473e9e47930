import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hyphenCompounds } from './compounds.js';

const joined = (text: string) => hyphenCompounds(text).map((c) => c.joined);

describe('hyphenCompounds', () => {
  it('joins a compound of two words of letters, as readers also write it', () => {
    expect(joined('Send E-mail in real-time from a built-in, multi-threaded server.')).toEqual(['Email', 'realtime', 'builtin', 'multithreaded']);
    expect(hyphenCompounds('an e-mail')[0]).toEqual({ joined: 'email', written: 'e-mail', start: 3, end: 9 });
  });
  it('leaves chains, options, identifiers, numbers and dashes between words alone', () => {
    expect(joined('state-of-the-art --num-callers -x mod_proxy-balancer utf-8 x86-64 a - b a--b')).toEqual([]);
  });
  it('skips joined words too long to be words', () => {
    expect(joined('supercalifragilistic-expialidocious')).toEqual([]);
  });

  it('property: finds what the rule says, written as one regular expression (the slower first version)', () => {
    const rule = /(?<![\p{L}\p{N}_.-])(\p{L}+)-(\p{L}+)(?![\p{L}\p{N}_]|-[\p{L}\p{N}])/gu;
    const byRule = (text: string) => [...text.matchAll(rule)].filter((m) => m[1]!.length + m[2]!.length <= 24).map((m) => ({ start: m.index, joined: m[1]! + m[2]! }));
    const piece = fc.constantFrom('a', 'mail', 'É', 'ж', '-', '--', '_', '.', '1', ' ', 'x'.repeat(20));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = pieces.join('');
        expect(hyphenCompounds(text).map(({ start, joined }) => ({ start, joined }))).toEqual(byRule(text));
      }),
      { numRuns: 2000 },
    );
  });
});
