// A copy of a string that shares no memory with its source. V8 makes a substring of 13 characters or
// more a slice that points into its parent: an attribute value is such a slice of the whole page's
// HTML, and a cache across pages that keeps one keeps the page. Each cache that outlives a page keeps
// detached copies (a Rust docs crawl held 130 MB more through resolve-link.ts's cache, 30-40 MB through
// defined-names.ts's).

export const detached = (s: string): string => JSON.parse(JSON.stringify(s)) as string;
