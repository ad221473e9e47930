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
});
