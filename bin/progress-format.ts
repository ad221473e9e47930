// The pieces of the crawl's progress line and summary that tell time and place: a bar of pages done
// against pages known, a duration a person reads at a glance, the warning that a crawl will be long
// (and what shortens it), and the per-host breakdown of the end summary. Pure: the command prints.

import type { CrawlStats } from '../shared/store/index.js';
import { describeGivenUp, type CrawlProgress, type HostGivenUp } from '../crawler/index.js';

/** Characters of the progress bar. */
export const BAR_WIDTH = 20;
/** A crawl whose delay floor is at least this long gets the long-crawl note at its start. */
export const LONG_CRAWL_NOTE_SECONDS = 120;
/** Hosts listed by name in the summary; the rest are counted. */
export const SUMMARY_HOSTS = 10;
/** Warnings of one kind shown on the terminal during a crawl; the rest only in the log. */
export const TERMINAL_WARNINGS_PER_KIND = 10;

const number = new Intl.NumberFormat('en-US');

/** `[#####---------------] 25%` for `done` of `total`. */
export function bar(done: number, total: number, width = BAR_WIDTH): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.floor(share * width); // never ahead of the work done
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${Math.floor(share * 100)}%`;
}

/** `45 s`, `19 min`, `2 h 05 min`, `3 d 4 h`: rounded to what matters at that size. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${String(min % 60).padStart(2, '0')} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** `512 of 1,119 pages [...] 45%, about 9 min left`. */
export function doneOfKnown(p: Pick<CrawlProgress, 'pages' | 'known' | 'secondsLeft'>): string {
  const left = p.secondsLeft === undefined ? '' : p.secondsLeft === 0 ? ', done' : `, about ${duration(p.secondsLeft)} left`;
  return `${number.format(p.pages)} of ${number.format(p.known)} pages ${bar(p.pages, p.known)}${left}`;
}

/** When the delay alone makes the known work long: says so, and how to change it. Undefined otherwise. */
export function longCrawlNote(p: Pick<CrawlProgress, 'slowestHost'>, minSeconds = LONG_CRAWL_NOTE_SECONDS): string | undefined {
  const h = p.slowestHost;
  if (!h || h.seconds < minSeconds) return undefined;
  const each = h.delayMs === 1000 ? 'one second' : `${h.delayMs / 1000} s`;
  const how =
    h.delaySource === 'crawl-delay'
      ? `its robots.txt asks for that Crawl-delay, which Gleaner keeps (up to --max-crawl-delay); --max-pages N stops sooner`
      : h.delaySource === 'site-delay'
        ? `the config file's "delay" for that site sets the wait (ask the site's owner before going below 1 s); --max-pages N stops sooner`
        : `--delay S sets the wait between requests to one host (ask the site's owner before going below 1 s), --max-pages N stops sooner`;
  return `note: ${number.format(h.queued)} pages queued for ${h.host} at ${each} each is about ${duration(h.seconds)}; ${how}`;
}

/** The summary's lines per origin: pages stored (errors among them), URLs blocked by robots.txt, cut as traps. */
export function hostLines(stats: Pick<CrawlStats, 'byHost' | 'blockedByRule'>, max = SUMMARY_HOSTS): string[] {
  const rows = new Map<string, { pages: number; errors: number; cut: number; blocked: number }>();
  for (const [origin, t] of Object.entries(stats.byHost ?? {})) rows.set(origin, { ...t, blocked: 0 });
  for (const [rule, n] of Object.entries(stats.blockedByRule)) {
    // blockedByRule keys are `origin rule`: the origin is everything before the first space.
    const origin = rule.split(' ', 1)[0]!;
    const row = rows.get(origin) ?? { pages: 0, errors: 0, cut: 0, blocked: 0 };
    row.blocked += n;
    rows.set(origin, row);
  }
  const sorted = [...rows].sort((a, b) => b[1].pages - a[1].pages || a[0].localeCompare(b[0]));
  const width = Math.max(0, ...sorted.slice(0, max).map(([o]) => o.length));
  const lines = sorted.slice(0, max).map(([origin, r]) => {
    const errors = r.errors > 0 ? ` (${number.format(r.errors)} errors)` : '';
    return `    ${origin.padEnd(width)}  ${number.format(r.pages)} pages${errors}, ${number.format(r.blocked)} blocked, ${number.format(r.cut)} cut`;
  });
  if (sorted.length > max) lines.push(`    +${sorted.length - max} more hosts`);
  return lines.length > 0 ? ['  per host:', ...lines] : [];
}

/**
 * The summary's lines for hosts given up: the `max` that took the most URLs with them, then the rest
 * counted by reason. A page linking to thousands of dead hosts gave one line each (3,253 on a
 * hostile page); each is also a line of the crawl's log, `logFile` (none for the demo's crawl).
 */
export function givenUpLines(hosts: readonly HostGivenUp[], logFile: string | undefined, max = SUMMARY_HOSTS): string[] {
  const sorted = [...hosts].sort((a, b) => b.urls - a.urls || a.origin.localeCompare(b.origin));
  const lines = sorted.slice(0, max).map((h) => `  given up: ${describeGivenUp(h)}`);
  const rest = sorted.slice(max);
  if (rest.length === 0) return lines;
  const byReason = new Map<string, number>();
  for (const h of rest) byReason.set(h.reason, (byReason.get(h.reason) ?? 0) + 1);
  const reasons = [...byReason].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([reason, n]) => `${reason} ${number.format(n)}`);
  const urls = rest.reduce((n, h) => n + h.urls, 0);
  return [...lines, `  given up: +${number.format(rest.length)} more hosts (${reasons.join(', ')}), ${number.format(urls)} URLs skipped${logFile === undefined ? '' : `; each is in ${logFile}`}`];
}

/**
 * Whether a warning goes to the terminal: the first `max` of each kind (its message with numbers and
 * URLs taken out), then one line saying the rest are in the log. Returns the lines to print.
 */
export function terminalWarnings(logFile: string, max = TERMINAL_WARNINGS_PER_KIND): (line: string) => string[] {
  const seen = new Map<string, number>();
  return (line) => {
    const kind = line.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, 'URL').replace(/\d+/g, '#');
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    if (n <= max) return [line];
    return n === max + 1 ? [`(more warnings like the last are written only to ${logFile})`] : [];
  };
}
