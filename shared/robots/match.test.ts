// The situations the seeds describe, as fixture files (fixtures/), with verdicts per agent in both
// modes, each with why; then the matcher's rules one by one, named by RFC 9309 section.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkUrl, groupFor, pathParamsQuery, productToken, type RobotsMode } from './match.js';
import { parseRobots, type ParsedRobots } from './parse.js';

const fixture = (name: string): ParsedRobots => parseRobots(readFileSync(new URL(`fixtures/${name}`, import.meta.url)));

/** [agent, path, allowed in rfc9309, allowed in draft, why] */
type Row = [string, string, boolean, boolean, string];

function verdicts(name: string, rows: Row[]): void {
  const robots = fixture(name);
  for (const [agent, path, rfc, draft, why] of rows) {
    it(`${agent} ${path}: rfc9309 ${rfc ? 'allows' : 'blocks'}, draft ${draft ? 'allows' : 'blocks'} (${why})`, () => {
      expect(checkUrl(robots, agent, `http://example.com${path}`, 'rfc9309').allowed).toBe(rfc);
      expect(checkUrl(robots, agent, `http://example.com${path}`, 'draft').allowed).toBe(draft);
    });
  }
}

describe('seed 000: a general record and a specific one with Allow exceptions and wildcards', () => {
  verdicts('seed000-geoportal.txt', [
    ['GeoportalServer', '/private/x', true, false, 'rfc: the specific group replaces *; draft: no line of the record matches, so the * record is asked'],
    ['GeoportalServer', '/private/for-geoportal/a.xml', true, true, 'the Allow exception'],
    ['GeoportalServer', '/private/for-geoportal/page.html', true, false, 'rfc: the longer Allow beats /*.html; draft: /*.html comes first'],
    ['GeoportalServer', '/docs/a.html', false, false, 'Disallow: /*.html'],
    ['GeoportalServer', '/feed.xml', true, true, 'Allow: /*.xml$'],
    ['GeoportalServer', '/not-for-geoportal/a', false, false, 'Disallow: /not-for-geoportal/'],
    ['geoportalserver', '/docs/a.html', false, false, 'agent names match case-insensitively'],
    ['Gleaner', '/private/x', false, false, 'another robot obeys the * record'],
    ['Gleaner', '/not-for-geoportal/a', true, true, 'the specific record does not apply to other robots'],
  ]);
  it('Crawl-Delay and Host reach the robot the record names', () => {
    for (const mode of ['rfc9309', 'draft'] as const) {
      expect(groupFor(fixture('seed000-geoportal.txt'), 'GeoportalServer', mode)).toEqual({
        agents: ['GeoportalServer'],
        crawlDelaySeconds: 10,
        host: 'https://myhost:8443',
        sitemaps: [],
      });
    }
  });
  it('the Host of the file reaches other robots too (it names the site, not a robot), the Crawl-Delay does not', () => {
    expect(groupFor(fixture('seed000-geoportal.txt'), 'Gleaner', 'rfc9309')).toMatchObject({ agents: ['*'], crawlDelaySeconds: null, host: 'https://myhost:8443' });
  });
});

describe('seed 003: several agents sharing a record', () => {
  verdicts('seed003-shared-record.txt', [
    // The seed means "Slurp and Webcrawler may crawl the public parts". In draft mode Geoportal's fall-back
    // (the choice) asks the * record when no line of theirs matches, and * disallows everything:
    // the seed's intent holds in rfc9309 mode only. Pinned here so that the difference stays deliberate.
    ['slurp', '/public/a', true, false, 'rfc: slurp is named in the shared record; draft: no line matches, the * fall-back blocks'],
    ['Webcrawler', '/public/a', true, false, 'so is webcrawler, case-insensitively; same fall-back in draft'],
    ['webcrawler', '/private/x', false, false, 'Disallow: /private for both'],
    ['slurp', '/privateer', false, false, 'a path is a prefix: /private covers /privateer'],
    ['Gleaner', '/public/a', false, false, 'everyone else: Disallow: /'],
  ]);
  it('the group lists both agents', () => {
    expect(groupFor(fixture('seed003-shared-record.txt'), 'webcrawler', 'rfc9309').agents).toEqual(['slurp', 'webcrawler']);
  });
});

describe('seed 002: an empty Disallow means no restriction', () => {
  verdicts('seed002-empty-disallow.txt', [
    ['cybermapper', '/cyberworld/map/index.html', true, true, 'its own record has only an empty Disallow'],
    ['Gleaner', '/cyberworld/map/index.html', false, false, 'the * record'],
    ['Gleaner', '/index.html', true, true, 'no rule matches'],
  ]);
});

describe('seed 002: a list of agents on one User-agent line', () => {
  verdicts('seed002-agent-list.txt', [
    ['Slurp', '/private/x', false, false, 'rfc: the product token of "Slurp Webcrawler" is Slurp; draft: the value contains slurp'],
    ['Slurp', '/tmp/x', true, false, 'rfc: the specific group replaces *; draft: falls back to the * record'],
    ['Webcrawler', '/private/x', true, false, 'rfc: Webcrawler is not the product token, * applies; draft: the value contains webcrawler'],
    ['Webcrawler', '/tmp/x', false, false, 'rfc: the * group; draft: the fall-back to *'],
    ['Gleaner', '/tmp/x', false, false, 'the * record'],
  ]);
});

describe('seed 004: Host and Crawl-delay in records, wildcards for some robots', () => {
  verdicts('seed004-host-crawl-delay.txt', [
    ['Yandex', '/Messages.asp?sort=date', false, false, 'Disallow: /Messages.asp?sort='],
    ['Yandex', '/icons/a.png', false, false, 'Disallow: /ic is a prefix'],
    ['Yandex', '/forum/1', true, true, 'no rule matches'],
    ['Googlebot', '/thread.asp?id=1&ts=5', false, false, 'rfc: /*ts= matches anywhere in the path and query; draft: record 1 (see below)'],
    ['Googlebot', '/thread.asp?id=', false, false, 'Disallow: /*=$'],
    ['Googlebot', '/forum/1', true, false, 'draft: the first record naming Googlebot-Image contains the name Googlebot (the hazard robotparser tests show)'],
    ['Googlebot-Image', '/forum/1', false, false, 'record 1 names it exactly'],
    ['StackRambler', '/list.asp?sort=1', false, false, 'Disallow: *sort= (a pattern may start with *)'],
    ['Gleaner', '/poll/1', true, true, 'no record for Gleaner and no * record'],
  ]);
  it('Host reaches the crawler from the Yandex record; Crawl-delay from the Slurp/msnbot record', () => {
    const robots = fixture('seed004-host-crawl-delay.txt');
    expect(groupFor(robots, 'Yandex', 'rfc9309')).toMatchObject({ agents: ['Yandex'], host: 'forum.liga.net', crawlDelaySeconds: null });
    expect(groupFor(robots, 'msnbot', 'rfc9309')).toMatchObject({ agents: ['Slurp', 'msnbot'], crawlDelaySeconds: 10 });
    // The draft's substring match sends msnbot to record 1 (msnbot-media), which has no Crawl-delay.
    expect(groupFor(robots, 'msnbot', 'draft')).toMatchObject({ agents: ['msnbot-media', 'Googlebot-Image', 'Yahoo-MMCrawler'], crawlDelaySeconds: null });
    expect(groupFor(robots, 'Gleaner', 'rfc9309')).toMatchObject({ agents: [], crawlDelaySeconds: null });
  });
});

describe('RFC9309 2.2.1 the user-agent line', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /\n\nUser-agent: Gleaner/2.1\nAllow: /\n\nUser-agent: AB42bot\nDisallow: /ab\n');
  it('the product token of a value is its leading [a-zA-Z_-] run', () => {
    expect(productToken('Gleaner/2.1')).toBe('Gleaner');
    expect(productToken('FOO BAR')).toBe('FOO');
    expect(productToken('AB42bot')).toBe('AB');
    expect(checkUrl(robots, 'gleaner', 'http://h/x', 'rfc9309').allowed).toBe(true);
  });
  it('AB42bot names AB (as Google and the spec suite read it), not the robot AB42bot', () => {
    expect(checkUrl(robots, 'AB', 'http://h/ab', 'rfc9309').allowed).toBe(false);
    expect(checkUrl(robots, 'AB42bot', 'http://h/x', 'rfc9309').allowed).toBe(false); // falls to *
  });
  it('groups for the same agent are merged', () => {
    const merged = parseRobots('User-agent: a\nDisallow: /x\n\nUser-agent: b\nDisallow: /y\n\nUser-agent: a\nDisallow: /z\n');
    expect(checkUrl(merged, 'a', 'http://h/z', 'rfc9309').rule).toEqual({ type: 'disallow', pattern: '/z', line: 8 });
    expect(checkUrl(merged, 'a', 'http://h/x', 'rfc9309').allowed).toBe(false);
    expect(checkUrl(merged, 'a', 'http://h/y', 'rfc9309').allowed).toBe(true);
  });
  it('"* bot" is still the global group', () => {
    expect(checkUrl(parseRobots('User-agent: * bot\nDisallow: /\n'), 'Gleaner', 'http://h/x', 'rfc9309').allowed).toBe(false);
  });
});

describe('RFC9309 2.2.2 the allow and disallow lines', () => {
  const robots = parseRobots('User-agent: *\nDisallow: /a\nAllow: /a\nDisallow: /a/b\nAllow: /a/b/\n');
  it('the longest match decides and the answer names its rule', () => {
    expect(checkUrl(robots, 'x', 'http://h/a/b/c', 'rfc9309')).toMatchObject({ allowed: true, rule: { type: 'allow', pattern: '/a/b/', line: 5 } });
    expect(checkUrl(robots, 'x', 'http://h/a/bc', 'rfc9309')).toMatchObject({ allowed: false, rule: { type: 'disallow', pattern: '/a/b', line: 4 } });
  });
  it('Allow wins a tie of equal length', () => {
    expect(checkUrl(robots, 'x', 'http://h/a', 'rfc9309').rule).toEqual({ type: 'allow', pattern: '/a', line: 3 });
  });
  it('/robots.txt is always allowed, even under Disallow: /', () => {
    const v = checkUrl(parseRobots('User-agent: *\nDisallow: /\n'), 'x', 'http://h/robots.txt', 'rfc9309');
    expect(v).toMatchObject({ allowed: true, rule: null });
    expect(v.reason).toMatch(/2\.2\.2/);
  });
  it('an answer without a matching rule says why', () => {
    expect(checkUrl(robots, 'x', 'http://h/z', 'rfc9309')).toMatchObject({ allowed: true, rule: null, reason: expect.stringMatching(/no rule/) as unknown });
  });
  it('the fragment is not part of the matched path; the query is', () => {
    expect(pathParamsQuery('http://h/a/b?c=d#frag')).toBe('/a/b?c=d');
  });
});

describe('the 1996 draft (mode draft)', () => {
  const mode: RobotsMode = 'draft';
  it('the first matching line wins, even when a later one is longer', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /a\nAllow: /a/b\n');
    expect(checkUrl(robots, 'x', 'http://h/a/b', mode)).toMatchObject({ allowed: false, rule: { line: 2 } });
    expect(checkUrl(robots, 'x', 'http://h/a/b', 'rfc9309')).toMatchObject({ allowed: true, rule: { line: 3 } });
  });
  it('the first * record applies, later ones are not merged', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n');
    expect(checkUrl(robots, 'x', 'http://h/b', mode).allowed).toBe(true);
    expect(checkUrl(robots, 'x', 'http://h/b', 'rfc9309').allowed).toBe(false);
  });
  it('names match as substrings either way round, without versions', () => {
    const robots = parseRobots('User-agent: gleaner-bot\nDisallow: /\n');
    expect(checkUrl(robots, 'Gleaner', 'http://h/x', mode).allowed).toBe(false);
    expect(checkUrl(robots, 'Gleaner', 'http://h/x', 'rfc9309').allowed).toBe(true);
    const reverse = parseRobots('User-agent: figtree\nDisallow: /tmp\n');
    expect(checkUrl(reverse, 'FigTree Robot libwww-perl/5.04', 'http://h/tmp', mode).allowed).toBe(false);
  });
  it('the verdict says when it came from the * record', () => {
    const robots = parseRobots('User-agent: *\nDisallow: /p\n\nUser-agent: Gleaner\nDisallow: /q\n');
    expect(checkUrl(robots, 'Gleaner', 'http://h/p', mode).reason).toMatch(/fall-back/);
  });
});

describe('RFC9309 2.2 as a model: random files agree with a direct reading of the RFC', () => {
  /** Builds groups from [key, value] lines the plain way and applies sections 2.2.1 to 2.2.3. */
  function model(lines: [string, string][], agent: string, path: string): boolean {
    if (path === '/robots.txt') return true;
    const groups: { agents: string[]; rules: [string, string][] }[] = [];
    let open: (typeof groups)[number] | null = null;
    for (const [key, value] of lines) {
      if (key === 'user-agent') {
        if (!open || open.rules.length > 0) groups.push((open = { agents: [], rules: [] }));
        open.agents.push(value.toLowerCase());
      } else if (open) open.rules.push([key, value]);
    }
    let applying = groups.filter((g) => g.agents.includes(agent.toLowerCase()));
    if (applying.length === 0) applying = groups.filter((g) => g.agents.includes('*'));
    let best: [string, string] | null = null;
    for (const rule of applying.flatMap((g) => g.rules)) {
      const [type, pattern] = rule;
      if (pattern === '') continue;
      const anchored = pattern.endsWith('$');
      const body = (anchored ? pattern.slice(0, -1) : pattern).split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
      if (!new RegExp(`^${body}${anchored ? '$' : ''}`, 's').test(path)) continue;
      if (!best || pattern.length > best[1].length || (pattern.length === best[1].length && type === 'allow')) best = rule;
    }
    return best === null || best[0] === 'allow';
  }

  it('on random groups, agents, patterns and paths', () => {
    const agentValue = fc.constantFrom('*', 'Gleaner', 'gleaner', 'Other');
    const pattern = fc.array(fc.constantFrom('/', 'a', 'b', '*', '$'), { maxLength: 5 }).map((cs) => (cs.length > 0 && cs[0] !== '*' ? '/' : '') + cs.join(''));
    const line = fc.oneof(
      fc.tuple(fc.constant('user-agent'), agentValue),
      fc.tuple(fc.constantFrom('allow', 'disallow'), pattern),
    );
    const path = fc.array(fc.constantFrom('/', 'a', 'b', '$'), { maxLength: 6 }).map((cs) => '/' + cs.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), fc.constantFrom('Gleaner', 'Other', 'Nobody'), path, (lines, agent, p) => {
        const body = lines.map(([k, v]) => `${k}: ${v}\n`).join('');
        expect(checkUrl(parseRobots(body), agent, `http://h${p}`, 'rfc9309').allowed).toBe(model(lines, agent, p));
      }),
      { numRuns: 3000 },
    );
  });
});
