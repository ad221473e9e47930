// The search form and the result page.

import type { Router } from 'express';
import { routeGroup } from './router.js';
import type { AppContext } from '../context.js';
import { relaxations } from '../no-results.js';
import { pageLinks } from '../pagination.js';
import { flagParam, intParam, sortParam, textParam } from '../params.js';
import { promotedView, resultView } from '../result-view.js';
import { runSearch } from '../run-search.js';
import { titleText } from '../format.js';
import type { SearchEngine } from '../search/index.js';

/**
 * A page with the search box (and the embeddable box's script) starts loading the page typeahead, off
 * the event loop (the engine's pagesReady), so the first keystroke's /api/suggest finds it loaded: it
 * waited for the load, 0.57-0.74 s on the Rust docs. Loaded here, not when `serve` starts: a process
 * that only answers the JSON search API never holds it (100 MB and more of heap). A failed load is not
 * lost: /api/suggest awaits the same promise and reports it.
 */
export function startTypeaheadLoad(engine: SearchEngine): void {
  void engine.pagesReady?.().catch(() => undefined);
}

export function searchRoutes(ctx: AppContext): Router {
  const router = routeGroup();
  const { options } = ctx;

  router.get('/', (_req, res) => {
    startTypeaheadLoad(ctx.engine);
    res.render('home', { title: 'Search', q: '', summary: ctx.engine.summary() });
  });

  router.get('/search', (req, res) => {
    const q = textParam(req.query.q);
    if (q.trim() === '') {
      res.redirect(303, '/');
      return;
    }
    const page = intParam(req.query.page, 'page', 1, 1, options.maxPage);
    startTypeaheadLoad(ctx.engine);
    const run = runSearch(ctx.engine, q, page, options.pageSize, options, ctx.cache, { literal: flagParam(req.query.literal), sort: sortParam(req.query.sort) });
    const offset = (run.page - 1) * run.size;
    res.render('search', {
      // Page 2 on says so in the title, the first thing a screen reader reads of a page, and the tab.
      title: titleText(q) + (run.page > 1 ? `, page ${run.page}` : ''),
      noindex: true,
      q: run.input,
      run,
      results: run.result.hits.map((hit, i) => resultView(hit, offset + i + 1)),
      promoted: (run.promoted ?? []).map(promotedView),
      links: pageLinks(run.page, run.pages),
      relaxed: run.result.total === 0 ? relaxations(run.query) : [],
      summary: ctx.engine.summary(),
    });
  });

  return router;
}
