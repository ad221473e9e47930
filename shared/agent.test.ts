import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GLEANER_VERSION, userAgentHeader } from './agent.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the user agent', () => {
  it('carries package.json\'s version, read not copied', () => {
    expect(GLEANER_VERSION).toBe(pkg.version);
    expect(userAgentHeader('Gleaner')).toBe(`Gleaner/${pkg.version} (+https://github.com/gleaner-search/gleaner#crawler)`);
  });

  it('finds package.json from the built layout too (dist/shared/agent.js is one folder deeper)', async () => {
    // `npm test` builds first; the compiled module must read the same file, not a copy.
    const built = (await import(new URL('../dist/shared/agent.js', import.meta.url).href)) as { GLEANER_VERSION: string };
    expect(built.GLEANER_VERSION).toBe(pkg.version);
  });
});
