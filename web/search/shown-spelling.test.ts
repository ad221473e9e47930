import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shownSpelling } from './shown-spelling.js';

describe('shownSpelling', () => {
  it("gives back a name's own spelling: camel case, a capital inside, a qualified name", () => {
    expect(shownSpelling('settimeout', ['Timers', 'Scheduling timers\nsetTimeout(callback[, delay])'])).toBe('setTimeout');
    expect(shownSpelling('postgresql', ['About PostgreSQL'])).toBe('PostgreSQL');
    expect(shownSpelling('buffer.from', ['Static method: Buffer.from(array)'])).toBe('Buffer.from');
    expect(shownSpelling('fs.readfile', ['fs.readFile(path[, options], callback)'])).toBe('fs.readFile');
  });

  it("keeps the folded word for a sentence's capital, a whole word only, and a word no text has", () => {
    expect(shownSpelling('buffer', ['Buffer', 'Buffers and TypedArrays'])).toBe('buffer');
    expect(shownSpelling('the', ['The server'])).toBe('the');
    // "settimeout" inside "setTimeoutPromise" is not the word; the next text has it whole.
    expect(shownSpelling('settimeout', ['setTimeoutPromise()', 'A setTimeout call'])).toBe('setTimeout');
    expect(shownSpelling('hashmap', ['nothing here'])).toBe('hashmap');
    // A title in capitals throughout is passed over; an acronym among small letters is a name.
    expect(shownSpelling('annual', ['ANNUAL REPORT 2024', 'The annual report'])).toBe('annual');
    expect(shownSpelling('json', ['JSON', 'About JSON'])).toBe('JSON');
    // The first occurrence decides: written in lower case first, it stays so.
    expect(shownSpelling('eventemitter', ['the eventemitter module', 'EventEmitter'])).toBe('eventemitter');
  });

  it('always shows the same word, case aside', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 8 }), fc.array(fc.string({ maxLength: 40 }), { maxLength: 4 }), (raw, texts) => {
        const word = raw.toLowerCase();
        expect(shownSpelling(word, texts).toLowerCase()).toBe(word);
      }),
    );
  });
});
