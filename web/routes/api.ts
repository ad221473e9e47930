// The JSON API: /api/search for programs, /api/suggest for the search box's autocomplete (and for
// browsers that added Gleaner through opensearch.xml).

import type { Router } from 'express';
import { routeGroup } from './router.js';
import type { AppContext } from '../context.js';
import { HttpError } from '../http-error.js';
import { flagParam, intParam, sortParam, stringParam, textParam } from '../params.js';
import { runSearch, splitLastWord } from '../run-search.js';
import { apiAnswer } from '../api-answer.js';

export function apiRoutes(ctx: AppContext): Router {
  const router = routeGroup();
  const { options } = ctx;

  router.get('/api/search', (req, res) => {
    const q = textParam(req.query.q);
    if (q.trim() === '') throw new HttpError(400, 'q is required: /api/search?q=words');
    const page = intParam(req.query.page, 'page', 1, 1, options.maxPage);
    const size = intParam(req.query.size, 'size', options.pageSize, 1, options.maxPageSize);
    // Explanations only when asked, as Elasticsearch's `explain` and Solr's `debugQuery`: they were 60%
    // of an answer's bytes (7.8 of 12.9 KB for "iterator map" on the Rust docs), and writing them 10% of serving it.
    const explain = flagParam(req.query.explain);
    // complete=1: asked at each keystroke (embed.js), so a last word may be the start of one (RunOptions.complete).
    const run = runSearch(ctx.engine, q, page, size, options, ctx.cache, { literal: flagParam(req.query.literal), explain, sort: sortParam(req.query.sort), complete: flagParam(req.query.complete) });
    res.json(apiAnswer(run, explain));
  });

  router.get('/api/suggest', async (req, res) => {
    const q = Array.from(textParam(req.query.q)).slice(0, options.maxSuggestChars).join('');
    const { head, last } = splitLastWord(q);
    const completions = last === '' ? [] : ctx.engine.suggest(last.normalize('NFKC').toLowerCase(), options.suggestLimit, head);
    const suggestions = completions.map((word) => head + word);
    // OpenSearch suggestions (what browsers ask for): [query, [completions]].
    if (stringParam(req.query.format) === 'opensearch') {
      res.type('application/x-suggestions+json').send(JSON.stringify([q, suggestions]));
      return;
    }
    // Pages whose title or a section heading matches what is typed (flexsearch, web/search/page-typeahead.ts).
    // The first such request waits for the typeahead to load, without holding up other requests.
    if (q.trim() !== '') await ctx.engine.pagesReady?.();
    const pages = q.trim() === '' ? [] : (ctx.engine.suggestPages?.(q, options.suggestPagesLimit) ?? []);
    res.json({ query: q, suggestions, pages });
  });

  return router;
}
