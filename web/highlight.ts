// A snippet with highlight ranges becomes plain-text segments, each marked or not. Views print each
// segment escaped inside or outside <mark>: the snippet's text is never treated as HTML.

export interface Segment {
  text: string;
  mark: boolean;
}

/** Splits `text` at the [start, end) ranges, which may be unsorted, overlapping or out of range. */
export function segments(text: string, ranges: readonly (readonly [number, number])[]): Segment[] {
  const clean = ranges
    .map(([s, e]) => [Math.max(0, Math.min(s, text.length)), Math.max(0, Math.min(e, text.length))] as const)
    .filter(([s, e]) => Number.isInteger(s) && Number.isInteger(e) && e > s)
    .sort((a, b) => a[0] - b[0]);
  const out: Segment[] = [];
  let at = 0;
  for (const [s, e] of clean) {
    if (e <= at) continue;
    const from = Math.max(s, at);
    const last = out[out.length - 1];
    if (from > at) out.push({ text: text.slice(at, from), mark: false });
    else if (last?.mark) {
      // Touching or overlapping ranges become one <mark>.
      last.text += text.slice(from, e);
      at = e;
      continue;
    }
    out.push({ text: text.slice(from, e), mark: true });
    at = e;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
