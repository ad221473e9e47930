// Loading a stage must not change the JavaScript built-ins of the process it is loaded in. pdf.js's
// legacy build polyfills globals when imported (JSON.parse among them, with a slower one), and
// `gleaner serve` loads the crawler to recrawl: every index load and API answer then paid for it. The
// document reader is loaded only where a document is read (crawler/documents.ts).

import { describe, expect, it } from 'vitest';

describe('process globals', () => {
  it('are the same after loading the crawler, the gateway and the serve command', async () => {
    const builtins = [JSON.parse, JSON.stringify, Array.prototype.at, Array.prototype.flat, structuredClone];
    await import('../crawler/index.js');
    await import('../web/index.js');
    await import('../bin/commands/serve.js');
    expect([JSON.parse, JSON.stringify, Array.prototype.at, Array.prototype.flat, structuredClone]).toEqual(builtins);
    expect(JSON.parse === builtins[0]).toBe(true);
  });
});
