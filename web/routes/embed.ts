// /embed.js: the embeddable search box (web/public/embed.js) at a short, stable address a site owner
// pastes into a page. Who may load it and use the API from another site is web/cross-origin.ts's call.

import { join } from 'node:path';
import type { Router } from 'express';
import { routeGroup } from './router.js';
import { assetDir } from '../assets.js';
import type { AppContext } from '../context.js';
import { startTypeaheadLoad } from './search.js';

export function embedRoutes(ctx: AppContext): Router {
  const router = routeGroup();
  const file = join(assetDir('public'), 'embed.js');
  router.get('/embed.js', (_req, res) => {
    startTypeaheadLoad(ctx.engine);
    res.sendFile(file, { maxAge: '1h', headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
  });
  return router;
}
