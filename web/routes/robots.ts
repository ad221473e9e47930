// The robots.txt checker: paste a file or name a site, list URLs, pick the agent and the reading
// (RFC 9309 or the 1996 draft); the page shows each verdict with its deciding line and the linter's
// report. GET with ?url= works too, so a check can be linked.

import express, { type Router } from 'express';
import { routeGroup } from './router.js';
import { bodyBudget } from '../body-budget.js';
import type { AppContext } from '../context.js';
import { stringParam } from '../params.js';
import { EMPTY_FORM, readForm, runRobotsForm, shareLink, type RobotsForm } from '../robots/form.js';

export function robotsRoutes(ctx: AppContext): Router {
  const router = routeGroup();
  const { options } = ctx;
  const formBody = express.urlencoded({ extended: false, limit: options.maxFormBytes, parameterLimit: 20 });
  const budget = bodyBudget(options.maxFormBytesInFlight, options.maxFormBytes);

  const render = async (res: express.Response, form: RobotsForm) => {
    const result = await runRobotsForm(form, options, ctx.fetchRobots);
    const { report, error } = result;
    res.status(result.error === undefined ? 200 : result.status).render('robots', { title: 'robots.txt checker', q: '', form, report, error, share: report && shareLink(form) });
  };

  router.get('/robots', async (req, res) => {
    if (stringParam(req.query.url) === '' && stringParam(req.query.robots) === '') {
      res.render('robots', { title: 'robots.txt checker', q: '', form: EMPTY_FORM, report: undefined, error: undefined, share: undefined });
      return;
    }
    await render(res, readForm(req.query));
  });

  router.post('/robots', budget, formBody, async (req, res) => {
    await render(res, readForm((req.body ?? {}) as Record<string, unknown>));
  });

  return router;
}
