// The response as the server sent it, kept beside the page record so a crawl can leave Gleaner for
// other tools (`gleaner export --format warc`), when the crawl is asked to (`--keep-raw`): status,
// headers, and the body bytes (after any Content-Encoding was undone), gzip-compressed by the crawler:
// stored as they came, LevelDB's compactions rewrote about a gigabyte for the Rust docs and the crawl
// ran at 0.73-0.81x (DESIGN.md). A sublevel of its own, so reading page records (the indexer, /stats)
// never reads bodies. Binary layout: 4-byte big-endian length of a JSON head ({status, headers}), the
// head, then the compressed body.

export interface RawResponse {
  status: number;
  /** Header name (lower case, as undici gives it) and value, in the order received. */
  headers: [string, string][];
  /** gzip of the body bytes; empty for a response without a body (a redirect). */
  bodyGzip: Uint8Array;
}

export function encodeRawResponse(raw: RawResponse): Uint8Array {
  const head = new TextEncoder().encode(JSON.stringify({ status: raw.status, headers: raw.headers }));
  const out = new Uint8Array(4 + head.byteLength + raw.bodyGzip.byteLength);
  new DataView(out.buffer).setUint32(0, head.byteLength);
  out.set(head, 4);
  out.set(raw.bodyGzip, 4 + head.byteLength);
  return out;
}

export function decodeRawResponse(bytes: Uint8Array): RawResponse {
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as { status: number; headers: [string, string][] };
  return { status: head.status, headers: head.headers, bodyGzip: Uint8Array.from(bytes.subarray(4 + length)) };
}
