// `gleaner extract URL`: fetch one page as the crawler would and print what would be indexed, so a site
// owner can tune the per-site extraction rules (crawler/site-rules.ts) before crawling.

import {
  checkSelector,
  DEFAULT_CRAWL_OPTIONS,
  fetchOnePage,
  rulesFor,
  type CrawlOptions,
  type ExtractRules,
  type FetchOneResult,
} from '../../crawler/index.js';
import { GleanerError } from '../../shared/errors.js';
import { parseCommandArgs, type Command } from '../command.js';
import { terminalSafe } from '../terminal-text.js';
import { crawlOptionsFromArgs } from './crawl.js';
import { canonicalizeUrl, uncrawlableReason } from '../../shared/url.js';

const HELP = `Usage: gleaner extract URL [--selector CSS] [--drop CSS]... [--config FILE] [--json]

Fetches one page politely (robots.txt asked and obeyed, the crawler's User-Agent and deadlines) and
prints what a crawl would index from it: title, headings, the names it defines, text and links.

  --selector CSS    the main content: only its text and headings are indexed (the config key
                    sites[origin].contentSelector); when it matches nothing the whole body is used
  --drop CSS        elements removed before the text is read (sites[origin].dropSelectors); repeatable
  --config FILE     a crawl config file: its agent, deadlines and robots settings, and, when neither
                    --selector nor --drop is given, the rules it sets for the page's origin
  --json            one JSON object instead of text
  -h, --help        this help

Template blocks (navigation and footers repeated across a site) are found at index time by comparing
many pages; one page cannot show them, so the text printed is the text after the selector and drop
rules only. Links come from the whole page, rules or not: they are what the crawl follows.
`;

const FLAGS = {
  selector: { type: 'string' },
  drop: { type: 'string', multiple: true },
  config: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export interface ExtractCommandIo {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

/** Flags win over the config file's rules for the origin; none of either is the streaming path. */
export function rulesFromArgs(url: string, selector: string | undefined, drops: string[] | undefined, config: Partial<CrawlOptions>): ExtractRules | undefined {
  if (selector === undefined && drops === undefined) return rulesFor(url, config.extractRules ?? {});
  if (selector !== undefined) checkSelector(selector, 'extract: --selector');
  for (const d of drops ?? []) checkSelector(d, 'extract: --drop');
  return selector === undefined ? { dropSelectors: drops ?? [] } : { contentSelector: selector, dropSelectors: drops ?? [] };
}

export function formatExtraction(r: Extract<FetchOneResult, { kind: 'page' }>, rules: ExtractRules | undefined): string {
  const e = r.analysis.extracted;
  const lines = [`${r.url}  HTTP ${r.status} ${r.contentType}`];
  if (rules === undefined) lines.push('rules: none (the streaming extractor)');
  else {
    lines.push(`rules: content ${rules.contentSelector ?? '(whole body)'}; drop ${rules.dropSelectors.length > 0 ? rules.dropSelectors.join(', ') : '-'}`);
    const matches = r.contentMatches === undefined ? '' : r.contentMatches === 0 ? 'the content selector matched nothing: the whole body is used; ' : `content: ${r.contentMatches} element(s); `;
    lines.push(r.rulesSkipped === undefined ? `  ${matches}dropped: ${r.dropped} element(s)` : `  not applied: ${r.rulesSkipped}`);
  }
  if (!r.analysis.robots.index) lines.push('robots: noindex (a crawl stores the page but the index leaves it out)');
  lines.push(`title: ${e.title}`, `language: ${e.language || '-'}`, `description: ${e.description || '-'}`, `date: ${e.date ?? '-'}`, 'headings:');
  lines.push(...(e.headings.length > 0 ? e.headings.map((h) => `  ${h}`) : ['  -']));
  // Names the page defines count as heading words (crawler/defined-names.ts).
  lines.push(`defines: ${e.defines !== undefined ? e.defines.join(' ') : '-'}`);
  lines.push(`text (${e.text.length} characters):`, e.text === '' ? '  -' : e.text);
  lines.push(`links (${r.analysis.links.length}):`, ...r.analysis.links.map((l) => `  ${l.url}  ${l.text}${l.rel.length > 0 ? `  [${l.rel.join(' ')}]` : ''}`));
  return lines.join('\n') + '\n';
}

export function createExtractCommand(io: ExtractCommandIo): Command {
  return {
    name: 'extract',
    summary: 'print what would be indexed from one page, to tune per-site extraction rules',
    help: HELP,
    async run(argv: string[]): Promise<number> {
      const { values: v, positionals, help } = parseCommandArgs('extract', argv, FLAGS);
      if (help) {
        io.out.write(HELP);
        return 0;
      }
      if (positionals.length !== 1) throw new GleanerError('BAD_ARGUMENT', 'extract: give one page URL (see `gleaner extract --help`)');
      const url = positionals[0]!;
      if (canonicalizeUrl(url) === undefined) throw new GleanerError('BAD_ARGUMENT', `extract: ${uncrawlableReason(url)}: "${url}"`);
      // The options a crawl of this page with this config file would use (agent, deadlines, robots, rules).
      const options: CrawlOptions = v.config === undefined ? { ...DEFAULT_CRAWL_OPTIONS, dataDir: '', seeds: [] } : crawlOptionsFromArgs(['--config', v.config, url]).options;
      const rules = rulesFromArgs(url, v.selector, v.drop, options);
      const result = await fetchOnePage(url, options, rules);
      if (result.kind !== 'page') {
        throw new GleanerError('FETCH_FAILED', `extract: ${result.url}: ${result.kind === 'failed' ? `could not fetch it: ${result.why}` : result.why}`);
      }
      if (v.json) {
        const e = result.analysis.extracted;
        io.out.write(
          JSON.stringify({
            url: result.url,
            status: result.status,
            contentType: result.contentType,
            rules: rules ?? null,
            contentMatches: result.contentMatches ?? null,
            dropped: result.dropped,
            robots: result.analysis.robots,
            title: e.title,
            language: e.language,
            description: e.description,
            date: e.date ?? null,
            headings: e.headings,
            defines: e.defines ?? [],
            text: e.text,
            links: result.analysis.links,
          }) + '\n',
        );
      } else io.out.write(terminalSafe(formatExtraction(result, rules)));
      return 0;
    },
  };
}

export const extractCommand: Command = createExtractCommand({ out: process.stdout, err: process.stderr });
