import { describe, expect, it } from 'vitest';
import { bar, doneOfKnown, duration, hostLines, longCrawlNote } from './progress-format.js';

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
});
