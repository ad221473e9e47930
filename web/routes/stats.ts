// Crawl and index figures, as a page and as JSON.

import { Router } from 'express';
import type { AppContext } from '../context.js';

export function statsRoutes(ctx: AppContext): Router {
  const router = Router();

  router.get('/stats', async (_req, res) => {
    const stats = await ctx.stats();
    res.render('stats', { title: 'Crawl and index statistics', q: '', stats, now: Date.now() });
  });

  router.get('/api/stats', async (_req, res) => {
    res.json(await ctx.stats());
  });

  return router;
}
