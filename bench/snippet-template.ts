// The snippet-template metric of issue 14: across the top 10 results of every judged query, the share of
// snippets that hold template text (goal 0). Template text is what indexer/templates.ts finds template in
// the crawl store (with its defaults), whatever the index was built with, so an index built without
// template detection (the "before") is judged by the same blocks as one built with it.

import { openStore, type PageRecord } from '../shared/store/index.js';
import { blockTexts, detectTemplates } from '../indexer/templates.js';

/** Runs shorter than this are ignored ("Next", "Note": words content uses too). */
const MIN_RUN_CHARS = 12;
/** A snippet holds template text when it holds this many consecutive characters of a run (or all of a shorter one). */
const MATCH_CHARS = 24;

/** A page's template runs (consecutive template blocks joined as in its text) and its content text. */
export interface PageRuns {
  runs: string[];
  content: string;
}

/** Per indexed page URL, its template runs and content. */
export async function templateRuns(dataDir: string): Promise<Map<string, PageRuns>> {
  const store = await openStore(dataDir, { mustExist: true });
  const pages: PageRecord[] = [];
  try {
    for await (const page of store.pages()) if (page.state === 'ok' && page.robots.index) pages.push(page);
  } finally {
    await store.close();
  }
  const templates = detectTemplates(pages);
  const runs = new Map<string, PageRuns>();
  for (const page of pages) {
    const t = templates.of(page);
    if (t === undefined) continue;
    const texts = blockTexts(page);
    const pageRuns: string[] = [];
    let run: string[] = [];
    texts.forEach((text, i) => {
      if (t.blocks[i]) run.push(text);
      if ((!t.blocks[i] || i === texts.length - 1) && run.length > 0) {
        pageRuns.push(run.join(' '));
        run = [];
      }
    });
    runs.set(page.url, { runs: pageRuns.filter((r) => r.length >= MIN_RUN_CHARS), content: t.contentText });
  }
  return runs;
}

/**
 * Whether `snippet` holds a piece of one of the page's template runs (see MATCH_CHARS) that its content
 * does not also hold: a page's own contents list repeats its headings, and the heading in a snippet is
 * content. Pure.
 */
export function holdsTemplate(snippet: string, { runs, content }: PageRuns): boolean {
  const text = snippet.replace(/^…|…$/g, '');
  for (const run of runs) {
    const width = Math.min(MATCH_CHARS, run.length);
    for (let p = 0; p + width <= run.length; p = run.indexOf(' ', p) + 1) {
      const piece = run.slice(p, p + width);
      if (text.includes(piece) && !content.includes(piece)) return true;
      if (run.indexOf(' ', p) === -1) break;
    }
  }
  return false;
}
