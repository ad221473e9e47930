// Crawl and index figures, as a page and as JSON.

import type { Router } from 'express';
import { routeGroup } from './router.js';
import type { AppContext } from '../context.js';

export function statsRoutes(ctx: AppContext): Router {
  const router = routeGroup();

  router.get('/stats', async (_req, res) => {
    const [stats, live] = await Promise.all([ctx.stats(), ctx.crawlStatus()]);
    // The crawl's own status is newer than what the index copied when it was built: a crawl that ran
    // (or resumed) since shows its whole totals, not the index's frozen ones.
    const crawl = live && (stats.crawl === undefined || live.updatedAt > stats.index.builtAt) ? live.stats : stats.crawl;
    res.render('stats', { title: 'Crawl and index statistics', q: '', stats: { ...stats, crawl }, live, now: Date.now() });
  });

  // The live crawl, for the /stats page's updater (web/public/live-stats.js) and for programs.
  router.get('/api/stats/live', async (_req, res) => {
    const live = await ctx.crawlStatus();
    res.set('Cache-Control', 'no-store');
    if (live === undefined) res.status(404).json({ error: { status: 404, message: 'no crawl has written a status in this data dir' } });
    else res.json(live);
  });

  router.get('/api/stats', async (_req, res) => {
    res.json(await ctx.stats());
  });

  return router;
}
