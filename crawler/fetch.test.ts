// fetchOnce against ordinary files served whole with their headers (test/sites/hostile-http.ts): the
// bodies it throws away must never surface as an error nobody listens to (issue 12, class 1: that killed
// the crawl once per image, favicon, feed or PDF link), and a repeated Content-Type is decided as
// browsers decide it.

import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HOSTILE_CASES as C, startHostileHttp, type HostileHttpSite } from '../test/sites/hostile-http.js';
import { fetchOnce, PAGE_TYPES, type FetchOutcome } from './fetch.js';

let site: HostileHttpSite;
let client: Agent;
const uncaught: unknown[] = [];
const record = (e: unknown): void => {
  uncaught.push(e);
};

beforeAll(async () => {
  site = await startHostileHttp({ bigGzipBytes: 1024 * 1024 });
  client = new Agent({ connections: 1 });
});
afterAll(async () => {
  await client.close();
  await site.close();
});
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', record);
});
afterEach(() => {
  process.off('uncaughtException', record);
});

const LIMITS = { requestTimeoutMs: 10_000, minBytesPerSecond: 0, minRateWindowMs: 1_000 };
const get = (path: string, maxBodyBytes = 1 << 20): Promise<FetchOutcome> =>
  fetchOnce(client, { url: site.origin + path, headers: {}, maxBodyBytes, wantedTypes: PAGE_TYPES, limits: LIMITS });
/** Long enough for an abort error emitted after fetchOnce returned to reach the process. */
const settle = () => new Promise((r) => setTimeout(r, 50));
/** No error escaped the requests of the test, once any could have. */
async function expectNothingEscaped(): Promise<void> {
  await settle();
  expect(uncaught).toEqual([]);
}

describe('fetchOnce and bodies it does not want', () => {
  it('small files sent whole with the headers: unwanted-type, and no error escapes', async () => {
    for (const [path, type] of Object.entries(C.binaries)) {
      expect(await get(path), path).toMatchObject({ kind: 'unwanted-type', status: 200, contentType: type });
    }
    await expectNothingEscaped();
  });

  it('the connection is still good afterwards: the next page on it is read whole', async () => {
    await get('/files/logo.png');
    expect(await get('/pages/one.html')).toMatchObject({ kind: 'body', status: 200, contentType: 'text/html', truncated: false });
    await expectNothingEscaped();
  });

  it('a repeated Content-Type is decided by its last valid value', async () => {
    const html = await get(C.typeClash.htmlLast);
    expect(html).toMatchObject({ kind: 'body', contentType: 'text/html' });
    expect(Buffer.from((html as { body: Uint8Array }).body).toString()).toContain('Two types, HTML last.');
    expect(await get(C.typeClash.jsonLast)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/json' });
    expect(await get(C.typeClash.invalidLast)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/zip' });
    await expectNothingEscaped();
  });

  it('a body with no Content-Type is what its first bytes say; a PNG sent as text/html is a PNG (WHATWG MIME Sniffing)', async () => {
    const page = await get(C.sniff.noTypeHtml);
    expect(page).toMatchObject({ kind: 'body', contentType: 'text/html' });
    expect(Buffer.from((page as { body: Uint8Array }).body).toString()).toContain('A page its server sent without a type.');
    expect(await get(C.sniff.noTypeText)).toMatchObject({ kind: 'body', contentType: 'text/plain' });
    expect(await get(C.sniff.noTypeBinary)).toMatchObject({ kind: 'unwanted-type', contentType: 'application/octet-stream' });
    expect(await get(C.sniff.pngAsHtml)).toMatchObject({ kind: 'unwanted-type', contentType: 'image/png' });
    expect(await get(C.sniff.gifWords)).toMatchObject({ kind: 'body', contentType: 'text/plain' });
    await expectNothingEscaped();
  });

  it('a gzip body larger decoded than the cap is cut, and no error escapes', async () => {
    const outcome = await get(C.bigGzip, 16 * 1024);
    expect(outcome).toMatchObject({ kind: 'body', truncated: true });
    expect((outcome as { body: Uint8Array }).body.byteLength).toBe(16 * 1024);
    await expectNothingEscaped();
  });
});
