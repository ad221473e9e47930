// /trace?url=...&q=...: one URL's journey as the gateway can tell it (web/trace.ts): the URL made
// canonical, the robots.txt verdict (fetched live where /robots may fetch), the page in the index, its
// tokens, postings and inbound anchors, and how it ranked for the query. The crawl-side steps (the live
// fetch, charset, extraction, the stored record) are `gleaner trace URL`'s: the page says so.

import type { Router } from 'express';
import { routeGroup } from './router.js';
import { DEFAULT_AGENT } from '../../shared/agent.js';
import type { TraceStep } from '../../shared/trace.js';
import { robotsTraceStep, wholeSiteRobotsStep } from '../../shared/trace.js';
import { shellQuoted, shellWord } from '../../shared/shell-word.js';
import { canonicalizeUrl, uncrawlableReason } from '../../shared/url.js';
import type { AppContext } from '../context.js';
import { stringParam, textParam } from '../params.js';
import { parseAsSearched } from '../run-search.js';
import { robotsUrlFor } from '../robots/fetch.js';
import { queryStep } from '../trace.js';

const MAX_URL_CHARS = 2048;

export function traceRoutes(ctx: AppContext): Router {
  const router = routeGroup();
  router.get('/trace', async (req, res) => {
    const input = stringParam(req.query.url).trim().slice(0, MAX_URL_CHARS);
    const q = textParam(req.query.q).trim().slice(0, ctx.options.maxQueryChars);
    if (input === '') {
      res.render('trace', { title: 'Trace a URL', q: '', form: { url: '', q }, steps: [], error: undefined });
      return;
    }
    const url = canonicalizeUrl(input);
    if (url === undefined) {
      res.status(400).render('trace', { title: 'Trace a URL', q: '', form: { url: input, q }, steps: [], error: `Cannot trace ${input}: ${uncrawlableReason(input)}` });
      return;
    }
    const steps: TraceStep[] = [
      { title: 'The URL', decidedBy: ['shared/url.ts'], verdict: url === input ? 'already canonical' : `made canonical: ${url}`, facts: [['as given', input], ['canonical', url]], note: 'One spelling per page: the store, the frontier and the index all key the page by it.' },
      await robotsStep(ctx, url),
      {
        title: 'Fetch, charset, extraction, the stored record',
        decidedBy: ['crawler/trace-fetch.ts', 'bin/commands/trace.ts'],
        verdict: 'shown by the command line',
        facts: [['run', `gleaner trace ${shellWord(url)}${q === '' ? '' : ` --query ${shellQuoted(q)}`}`]],
        note: 'The gateway reads only the index; the command fetches the page live with the crawler\'s own code and reads the store, and shows the steps in between.',
      },
    ];
    const indexed = ctx.engine.trace?.(url);
    if (indexed === undefined) {
      steps.push({ title: 'The index', decidedBy: ['indexer/read-store.ts'], verdict: 'not in the index', facts: [], note: 'Only stored pages in state ok, not noindex and not a copy of another, are indexed; or the page was crawled after the index was built (run gleaner index).' });
    } else {
      steps.push(...indexed);
      if (q !== '') steps.push(queryStep(ctx.engine, parseAsSearched(q, ctx.options), q, url));
    }
    res.render('trace', { title: `Trace of ${url}`, q: '', form: { url: input, q }, steps, error: undefined });
  });
  return router;
}

async function robotsStep(ctx: AppContext, url: string): Promise<TraceStep> {
  const base = { title: 'robots.txt', decidedBy: ['shared/robots/parse.ts', 'shared/robots/match.ts'] };
  const robotsUrl = robotsUrlFor(url);
  if (!ctx.options.robotsFetch || robotsUrl === undefined) {
    return { ...base, verdict: 'not fetched here', facts: [], note: 'This server does not fetch URLs for visitors (serve --robots-fetch); gleaner trace and the /robots checker show the verdict.' };
  }
  const fetched = await ctx.fetchRobots(robotsUrl, DEFAULT_AGENT, 'rfc9309', ctx.options.robotsFetchTimeoutMs);
  const described = `${fetched.url}: ${fetched.described}; ${fetched.why}`;
  if (fetched.outcome === 'ok') return robotsTraceStep(new TextDecoder().decode(fetched.body), url, DEFAULT_AGENT, 'rfc9309', described);
  // The fetch policy decided for the whole site (a 5xx disallows everything, a 404 allows it).
  return wholeSiteRobotsStep(described, fetched.check(url).allowed, fetched.why);
}
