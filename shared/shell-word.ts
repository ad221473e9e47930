// Text shown as a command to copy into a shell: each value a shell reads back as one word, never as
// code. A crawled URL may hold `$(...)`, backticks, `;` or `&` (the URL parser keeps them in a query),
// and a page that shows `gleaner trace URL` is then a command a reader runs.

/** `value` in single quotes, each `'` in it closed, escaped and reopened. */
export function shellQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `value` bare when it holds only characters no shell treats specially, quoted otherwise. */
export function shellWord(value: string): string {
  return /^[\w./:=@%+-]+$/.test(value) ? value : shellQuoted(value);
}
