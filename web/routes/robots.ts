// The robots.txt checker: paste a file or name a site, list URLs, pick the agent and the reading
// (RFC 9309 or the 1996 draft); the page shows each verdict with its deciding line and the linter's
// report. GET with ?url= works too, so a check can be linked.

import express, { Router } from 'express';
import type { RobotsMode } from '../../crawler/robots/index.js';
import type { AppContext } from '../app.js';
import { stringParam } from '../params.js';
import { checkFetched, checkPasted, urlList, type RobotsReport } from '../robots/check.js';
import { robotsUrlFor } from '../robots/fetch.js';

/** What the form holds, echoed back into it. */
export interface RobotsForm {
  source: 'paste' | 'url';
  robots: string;
  url: string;
  urls: string;
  agent: string;
  mode: RobotsMode;
}

const MAX_AGENT_CHARS = 100;
const MAX_URL_CHARS = 2048;
/** Where pasted-file paths are resolved: any host will do, only the path is matched. */
const PASTE_BASE = 'https://example.com/';

const EMPTY_FORM: RobotsForm = {
  source: 'paste',
  robots: 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\nUser-agent: BadBot\nDisallow: /\n',
  url: '',
  urls: '/\n/private/salaries.html\n/private/press/release.html',
  agent: 'Gleaner',
  mode: 'rfc9309',
};

function readForm(source: Record<string, unknown>): RobotsForm {
  const mode = stringParam(source.mode);
  const agent = stringParam(source.agent).trim().slice(0, MAX_AGENT_CHARS);
  const url = stringParam(source.url).trim().slice(0, MAX_URL_CHARS);
  return {
    source: stringParam(source.source) === 'url' || (url !== '' && stringParam(source.source) !== 'paste') ? 'url' : 'paste',
    // Browsers submit a textarea with CRLF line ends whatever the pasted file had (HTML's form
    // encoding): undo that, or the linter would blame every pasted file for DOS line endings.
    robots: stringParam(source.robots).replace(/\r\n/g, '\n'),
    url,
    urls: stringParam(source.urls),
    agent: agent === '' ? EMPTY_FORM.agent : agent,
    mode: mode === 'draft' ? 'draft' : 'rfc9309',
  };
}

/** Cuts text to `maxBytes` of UTF-8 without splitting a character. */
function capBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, cut: false };
  return { text: new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\ufffd$/, ''), cut: true };
}

export function robotsRoutes(ctx: AppContext): Router {
  const router = Router();
  const { options } = ctx;
  const formBody = express.urlencoded({ extended: false, limit: options.maxFormBytes, parameterLimit: 20 });

  const run = async (form: RobotsForm): Promise<{ report?: RobotsReport; error?: string }> => {
    if (form.source === 'url') {
      if (!options.robotsFetch) return { error: 'this server does not fetch robots.txt files for visitors: paste the file instead' };
      const robotsUrl = robotsUrlFor(form.url);
      if (robotsUrl === undefined) return { error: `"${form.url}" is not an http or https address` };
      const { urls, notices } = urlList(form.urls, robotsUrl, options.maxRobotsUrls);
      const fetched = await ctx.fetchRobots(robotsUrl, form.agent, form.mode, options.robotsFetchTimeoutMs);
      return { report: checkFetched(fetched, form.agent, form.mode, urls, notices) };
    }
    const { text, cut } = capBytes(form.robots, options.maxRobotsBytes);
    const { urls, notices } = urlList(form.urls, PASTE_BASE, options.maxRobotsUrls);
    if (cut) notices.unshift(`the pasted file was cut at ${options.maxRobotsBytes} bytes`);
    return { report: checkPasted(text, form.agent, form.mode, urls, notices) };
  };

  const render = async (res: express.Response, form: RobotsForm) => {
    const { report, error } = await run(form);
    res.status(error ? 400 : 200).render('robots', { title: 'robots.txt checker', q: '', form, report, error });
  };

  router.get('/robots', async (req, res) => {
    if (stringParam(req.query.url) === '' && stringParam(req.query.robots) === '') {
      res.render('robots', { title: 'robots.txt checker', q: '', form: EMPTY_FORM, report: undefined, error: undefined });
      return;
    }
    await render(res, readForm(req.query as Record<string, unknown>));
  });

  router.post('/robots', formBody, async (req, res) => {
    await render(res, readForm((req.body ?? {}) as Record<string, unknown>));
  });

  return router;
}
