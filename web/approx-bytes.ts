// What a plain value (strings, numbers, arrays, plain objects, as a search result is) holds in memory,
// estimated, for caches bounded in bytes rather than entries: answers differ in size a thousandfold (ten
// bare hits, or fifty with their explanations), so a count bounds nothing. V8's layout is not visible;
// this counts two bytes a string character and a word a slot, an overestimate of the right order.

const SLOT_BYTES = 8;
const OBJECT_BYTES = 3 * SLOT_BYTES;
const STRING_BYTES = 2 * SLOT_BYTES;

/** Estimated bytes of `value` and everything it refers to (a value reached twice is counted twice). */
export function approxBytes(value: unknown): number {
  let bytes = 0;
  // A stack, not recursion: a deep value must not overflow the call stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') bytes += STRING_BYTES + 2 * v.length;
    else if (ArrayBuffer.isView(v)) bytes += OBJECT_BYTES + v.byteLength;
    else if (Array.isArray(v)) {
      bytes += OBJECT_BYTES + SLOT_BYTES * v.length;
      for (const item of v as unknown[]) if (typeof item === 'object' || typeof item === 'string') pending.push(item);
    } else if (typeof v === 'object' && v !== null) {
      bytes += OBJECT_BYTES;
      // A slot for each key and value; the key strings are shared by objects of one shape.
      for (const item of Object.values(v)) {
        bytes += 2 * SLOT_BYTES;
        if (typeof item === 'object' || typeof item === 'string') pending.push(item);
      }
    } else bytes += SLOT_BYTES;
  }
  return bytes;
}
