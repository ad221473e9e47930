import { describe, expect, it } from 'vitest';
import { bar, doneOfKnown, duration, givenUpLines, hostLines, longCrawlNote, terminalWarnings } from './progress-format.js';

describe('the progress line tells the time', () => {
  it('a bar of pages done against pages known', () => {
    expect(bar(0, 100, 10)).toBe('[----------] 0%');
    expect(bar(45, 100, 10)).toBe('[####------] 45%');
    expect(bar(100, 100, 10)).toBe('[##########] 100%');
    expect(bar(0, 0, 4)).toBe('[----] 0%');
  });

  it('durations rounded to what matters at their size', () => {
    expect([duration(42.4), duration(1_119), duration(2 * 3600 + 5 * 60), duration(76 * 3600)]).toEqual(['42 s', '19 min', '2 h 05 min', '3 d 4 h']);
  });

  it('done of known, with the time left once there is one', () => {
    expect(doneOfKnown({ pages: 512, known: 1_119, secondsLeft: 580 })).toBe('512 of 1,119 pages [#########-----------] 45%, about 10 min left');
    expect(doneOfKnown({ pages: 0, known: 1, secondsLeft: undefined })).toBe('0 of 1 pages [--------------------] 0%');
  });

  it('a long crawl is said at its start, with how to change it', () => {
    const host = { host: 'https://docs.example.org', queued: 1_119, delayMs: 1000, seconds: 1_119 };
    const note = longCrawlNote({ slowestHost: { ...host, delaySource: 'delay' } });
    expect(note).toBe('note: 1,119 pages queued for https://docs.example.org at one second each is about 19 min; --delay S sets the wait between requests to one host (ask the site\'s owner before going below 1 s), --max-pages N stops sooner');
    expect(longCrawlNote({ slowestHost: { ...host, delayMs: 5000, seconds: 5_595, delaySource: 'crawl-delay' } })).toContain('at 5 s each is about 1 h 33 min; its robots.txt asks for that Crawl-delay');
    expect(longCrawlNote({ slowestHost: { ...host, delayMs: 5000, seconds: 5_595, delaySource: 'site-delay' } })).toContain('at 5 s each is about 1 h 33 min; the config file\'s "delay" for that site sets the wait');
    expect(longCrawlNote({ slowestHost: { ...host, queued: 100, seconds: 100, delaySource: 'delay' } })).toBeUndefined();
    expect(longCrawlNote({})).toBeUndefined();
  });

  it('the summary per host: pages, errors, blocked (from the rule keys), cut; the biggest first', () => {
    const lines = hostLines({
      byHost: { 'http://a': { pages: 3, errors: 1, cut: 2 }, 'http://bb:8080': { pages: 10, errors: 0, cut: 0 } },
      blockedByRule: { 'http://a line 2: disallow /x': 4, 'http://a robots.txt unreachable': 1, 'http://c line 1: disallow /': 7 },
    });
    expect(lines).toEqual([
      '  per host:',
      '    http://bb:8080  10 pages, 0 blocked, 0 cut',
      '    http://a        3 pages (1 errors), 5 blocked, 2 cut',
      '    http://c        0 pages, 7 blocked, 0 cut',
    ]);
    expect(hostLines({ byHost: { 'http://a': { pages: 1, errors: 0, cut: 0 }, 'http://b': { pages: 2, errors: 0, cut: 0 } }, blockedByRule: {} }, 1)).toEqual(['  per host:', '    http://b  2 pages, 0 blocked, 0 cut', '    +1 more hosts']);
    expect(hostLines({ blockedByRule: {} })).toEqual([]);
  });

  it('the summary\'s hosts given up: the ones that took most URLs by name, the rest counted by reason', () => {
    const host = (port: number, urls: number, reason = 'connection refused') => ({ origin: `http://127.0.0.1:${port}`, reason, failures: 1, cannotConnect: true, urls });
    const few = [host(1, 1), host(2, 3)];
    expect(givenUpLines(few, 'data/crawl.log.jsonl')).toEqual([
      '  given up: http://127.0.0.1:2: robots.txt connection refused; host cannot be reached, 3 URLs skipped',
      '  given up: http://127.0.0.1:1: robots.txt connection refused; host cannot be reached, 1 URL skipped',
    ]);
    // A page linking to thousands of dead hosts: ten lines and a count, not a line each.
    const many = [...Array.from({ length: 3000 }, (_, i) => host(20000 + i, 1)), host(9, 5, 'host name not found (DNS)'), host(8, 1, 'host name not found (DNS)')];
    const lines = givenUpLines(many, 'data/crawl.log.jsonl', 3);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe('  given up: http://127.0.0.1:9: robots.txt host name not found (DNS); host cannot be reached, 5 URLs skipped');
    expect(lines[3]).toBe('  given up: +2,999 more hosts (connection refused 2,998, host name not found (DNS) 1), 2,999 URLs skipped; each is in data/crawl.log.jsonl');
    expect(givenUpLines(many, undefined, 3)[3]).toMatch(/2,999 URLs skipped$/);
  });

  it('the terminal shows a few warnings of each kind and says where the rest are', () => {
    const shown = terminalWarnings('data/crawl.log.jsonl', 2);
    const refused = (port: number) => `warn: robots.txt connection refused; giving up the site (1 try, 1 URL skipped) (http://127.0.0.1:${port})`;
    expect(shown(refused(1))).toEqual([refused(1)]);
    expect(shown(refused(2))).toEqual([refused(2)]);
    expect(shown(refused(3))).toEqual(['(more warnings like the last are written only to data/crawl.log.jsonl)']);
    expect(shown(refused(4))).toEqual([]);
    // Another kind has its own count.
    expect(shown('warn: robots.txt HTTP 503; asking again in 2 s (attempt 1 of 4) (http://a.test)')).toHaveLength(1);
  });
});
