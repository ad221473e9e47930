// Pages about Gleaner itself: /about, /opensearch.xml (so browsers can add it as a search engine),
// its own /robots.txt, /favicon.ico (the icon's one address browsers guess), and /healthz (for
// monitors: 200 while the index answers, 503 once it fails).

import type { Request, Router } from 'express';
import { routeGroup } from './router.js';
import type { AppContext } from '../context.js';
import { FIELDS } from '../../shared/index-format/index.js';
import { DEFAULT_LEAD_OPTIONS, DEFAULT_NAME_TITLE_OPTIONS, DEFAULT_RANK_PARAMS } from '../search/index.js';

/** The origin this request reached, for absolute links in opensearch.xml. */
function originOf(req: Request): string {
  const host = req.get('host') ?? '';
  // The Host header is the client's to choose; only a plain host[:port] is echoed back.
  return /^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `${req.protocol}://${host}` : 'http://127.0.0.1';
}

export function infoRoutes(ctx: AppContext): Router {
  const router = routeGroup();

  router.get('/about', (_req, res) => {
    // The formula /about shows is written from the parameters `gleaner serve` ranks with, never copied.
    const rank = DEFAULT_RANK_PARAMS;
    res.render('about', {
      title: 'How Gleaner works',
      q: '',
      ranking: { k1: rank.k1, pairWeight: rank.pairWeight, contentLinkWeight: rank.contentLinkWeight, templateLinkWeight: rank.templateLinkWeight, fields: FIELDS.map((f, i) => `${f} ${rank.fieldWeight[i]!}`).join(', ') },
      nameTitleFactor: DEFAULT_NAME_TITLE_OPTIONS.factor,
      lead: DEFAULT_LEAD_OPTIONS,
    });
  });

  router.get('/opensearch.xml', (req, res) => {
    res.type('application/opensearchdescription+xml');
    res.render('opensearch', { origin: originOf(req), maxQueryChars: ctx.options.maxQueryChars });
  });

  // Gleaner's own robots.txt: result pages and the API are endless and worthless to other crawlers.
  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain').send('User-agent: *\nDisallow: /search\nDisallow: /api/\nDisallow: /robots\nDisallow: /trace\n');
  });

  // Bookmark tools, feed readers and browsers without a page's <link rel="icon"> ask here first.
  router.get('/favicon.ico', (_req, res) => {
    res.redirect(301, '/static/favicon.svg');
  });

  // 503 "degraded" while searches fail on a damaged index file, so a monitor sees what users see.
  router.get('/healthz', (_req, res) => {
    const summary = ctx.engine.summary();
    const failure = ctx.health.failure();
    res.set('Cache-Control', 'no-store');
    if (failure !== undefined) res.status(503).json({ status: 'degraded', documents: summary.documents, builtAt: summary.builtAt, message: failure });
    else res.json({ status: 'ok', documents: summary.documents, builtAt: summary.builtAt });
  });

  return router;
}
