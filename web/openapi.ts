// The JSON API described for programs and people: an OpenAPI 3.1 document built from the gateway's
// own limits (web/defaults.ts), so the numbers it states are the ones the server enforces. Served as
// /openapi.json and rendered by /api. The response schemas forbid undocumented fields: the test that
// validates real answers against them fails when the API grows a field this file does not describe.

import { INDEX_FORMAT_VERSION } from '../shared/index-format/index.js';
import { GLEANER_VERSION } from '../shared/agent.js';
import type { WebOptions } from './defaults.js';
import { SORT_ORDERS } from './search/index.js';

type Schema = Record<string, unknown>;

const int = (description: string, extra: Schema = {}): Schema => ({ type: 'integer', description, ...extra });
const num = (description: string): Schema => ({ type: 'number', description });
const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const counts = (description: string): Schema => ({ type: 'object', description, additionalProperties: { type: 'integer' } });
/** An object whose every listed property is required, and nothing else allowed. */
const strict = (description: string, properties: Record<string, Schema>, optional: readonly string[] = []): Schema => ({
  type: 'object',
  description,
  properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  additionalProperties: false,
});
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const json = (description: string, schema: Schema) => ({ description, content: { 'application/json': { schema } } });
const errorResponse = (description: string) => json(description, ref('Error'));

export function openApiDocument(options: WebOptions): Schema {
  const schemas: Record<string, Schema> = {
    Error: strict('What went wrong.', { error: strict('The error.', { status: int('The HTTP status, again.'), message: str('What went wrong, in words a person understands.') }) }),
    Explanation: strict('Why a result scored what it did ("why this result"): every part shown here ranks, and nothing else does.', {
      textScore: num('Text relevance (BM25F) before the link boost.'),
      terms: {
        type: 'array',
        description: 'Per query token and field: its term frequency and BM25F contribution.',
        items: strict('One token in one field.', { token: str('The indexed token (a stem, a word pair, a CJK bigram, an identifier, an accent fold).'), field: str('title, headings, body, url or anchor; defines when the page defines the name (scored by presence).'), tf: int('Occurrences in the field (capped at 255).'), contribution: num('Its share of textScore.') }),
      },
      inboundLinks: int('Distinct pages linking here (self-links and nofollow excluded).'),
      linkWeight: num('Where the index does not know template links: linkBoost = 1 + linkWeight * ln(1 + inboundLinks).'),
      contentLinks: int('Where it does: of inboundLinks, those from page content (not site navigation); then linkBoost = 1 + contentLinkWeight * ln(1 + contentLinks) + templateLinkWeight * ln(1 + inboundLinks - contentLinks).'),
      contentLinkWeight: num('The weight of links from page content.'),
      templateLinkWeight: num('The weight of links from site templates (navigation, sidebars, footers).'),
      linkBoost: num('The multiplier from inbound links.'),
      hubShare: num('Share of the page\'s text that names or repeats other pages (a table of contents, an index, a listing).'),
      hubFactor: num('The multiplier that share puts on the score (1: not a hub).'),
      listingShare: num('How much the page is a source listing: its content\'s share inside <pre> when it has next to no prose of its own, else 0.'),
      listingFactor: num('The multiplier that share puts on the score (1: not a listing).'),
      siteLanguage: str("The language most pages of the result's site are in ('' when unknown or tied)."),
      languageFactor: num("The multiplier the page's language puts on the score: below 1 when it is known and is not its site's main language (a translation), else 1."),
      queryPairs: int('How many neighbouring word pairs the query has (absent: none, or the result was below the best results proximity reorders).'),
      nearPairs: int('How many of them stand within a few words of each other in the page\'s text.'),
      proximityFactor: num('The multiplier that puts on the score: 1 + weight * nearPairs / queryPairs (1 without pairs).'),
      nameTitleFactor: num('The multiplier for a title that holds the query\'s plain words only inside code names (below 1 then, else 1).'),
      queryWords: int('How many plain words the query has, for the opening rule (absent: it does not apply to the query, or the result was below the best results it reorders).'),
      openingWords: int('How many of them stand in the opening of the page\'s text (its first few words).'),
      openingFactor: num('The multiplier that puts on the score: 1 + weight * openingWords / queryWords (1 when absent).'),
      score: num('The final score: textScore * linkBoost * hubFactor * listingFactor * languageFactor * proximityFactor * nameTitleFactor * openingFactor.'),
    }, ['linkWeight', 'contentLinks', 'contentLinkWeight', 'templateLinkWeight', 'queryPairs', 'nearPairs', 'queryWords', 'openingWords']),
    Hit: strict('One result.', {
      url: str('The page address.', { format: 'uri' }),
      section: strict('The part of a long page that matches best, when it is not the page\'s top: link to its url; the snippet is from it.', { id: str('The heading\'s id.'), heading: str('The section heading.'), url: str('The page address with #id.', { format: 'uri' }) }),
      context: str('The title of the page one level up in its site, as a breadcrumb shows it (absent when the page names none).'),
      title: str('The page title (or its address when it has none).'),
      snippet: str('Plain text around the best matching passage.'),
      highlights: { type: 'array', description: '[start, end) offsets into snippet, in UTF-16 code units, of the matched words.', items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } },
      language: str('Primary language subtag (en, es, zh, ...), empty when unknown.'),
      direction: str("Which way the title and snippet run, from the page's language: rtl (Arabic, Hebrew, Persian, ...), ltr, or auto when the language is unknown (the text's own letters decide); write it as their dir attribute.", { enum: ['ltr', 'rtl', 'auto'] }),
      date: str("The page's date, ISO 8601 in UTC: the date it declares in its metadata (published, else modified), else its HTTP Last-Modified (not when most pages of its site share that day: a deployment's); absent when it has none.", { format: 'date-time' }),
      score: num('The ranking score (higher first).'),
      explain: ref('Explanation'),
      missing: { type: 'array', items: { type: 'string' }, description: 'A partial match (shown after every full match when there are few): the query words, phrases or OR groups it lacks.' },
    }, ['section', 'context', 'date', 'explain', 'missing']),
    SearchAnswer: strict('A page of results.', {
      query: str(`The query as read: q, cut to its first ${options.maxQueryChars} characters.`),
      understood: str("The query as the parser understood it, in the query language, with the site's synonyms (serve --synonyms) as OR alternatives."),
      ignored: { type: 'array', items: { type: 'string' }, description: 'Parts of the query that were dropped, each with why.' },
      total: int('Pages matching the query.'),
      totalIsEstimate: { type: 'boolean', enum: [true], description: 'Present when `total` is estimated (phrase matches past those checked are counted on a sample): show "about N results".' },
      phraseCheckStopped: strict('Present when the phrase checks stopped before this page was sure: only the best `checked` of the `candidates` (pages holding every word) were looked at, and pages past them may match.', {
        checked: int('Candidates whose phrase was checked, best first.'),
        candidates: int('Pages holding every word of the query.'),
      }),
      sort: str('The order of the results: relevance, or date (newest first).', { enum: [...SORT_ORDERS] }),
      page: int('This page number (1-based).'),
      size: int('Results per page.'),
      pages: int('Pages of results.'),
      tookMs: num('Server time, milliseconds.'),
      didYouMean: str('A corrected query, when a word is unknown to (or rare in) the index and a close frequent word exists, and the correction was not searched in its place: the query as typed has matches, or the correction is unsure (two edits away to a word on few pages).'),
      correctedFrom: str('The query as typed, when it matched nothing and these are the results of its correction (`understood`); ask again with literal=1 for the query as typed.'),
      completedFrom: str('The query as typed, when it was asked with complete=1, matched nothing with every word, and these are the results of it with its last word completed (`understood`), as a search box that searches at each keystroke wants.'),
      promoted: { type: 'array', items: ref('PromotedPage'), description: "Pages the site promotes for this query (serve --promoted, an elevate.xml), on page 1 only, to show above the results as recommended; the results are ranked without them and may hold them too." },
      results: { type: 'array', items: ref('Hit') },
    }, ['didYouMean', 'correctedFrom', 'completedFrom', 'totalIsEstimate', 'phraseCheckStopped', 'promoted']),
    PromotedPage: strict('A page the site promotes for the query.', {
      url: str('The page address, as the site listed it.', { format: 'uri' }),
      title: str('The page title (or its address when it has none).'),
      snippet: str('Plain text of the page around the query\'s words, or its opening.'),
      highlights: { type: 'array', description: '[start, end) offsets into snippet, in UTF-16 code units, of the matched words.', items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } },
      language: str('Primary language subtag (en, es, zh, ...), empty when unknown.'),
      direction: str("Which way the title and snippet run, from the page's language: rtl (Arabic, Hebrew, Persian, ...), ltr, or auto when the language is unknown (the text's own letters decide); write it as their dir attribute.", { enum: ['ltr', 'rtl', 'auto'] }),
      date: str("The page's date, ISO 8601 in UTC, as a result's; absent when it has none.", { format: 'date-time' }),
    }, ['date']),
    SuggestAnswer: strict('Completions of the last word, and pages that match what is typed.', {
      query: str('The text typed so far.'),
      suggestions: { type: 'array', items: { type: 'string' }, description: 'The text with its last word completed, most useful first.' },
      pages: { type: 'array', items: ref('PageSuggestion'), description: `Pages whose title or a section heading has every word typed, the last as a prefix (at most ${options.suggestPagesLimit}).` },
    }),
    PageSuggestion: strict('A page the search box offers.', {
      title: str('The page title.'),
      url: str('The page, or its section (`url#id`) when a section heading matched.'),
      heading: str('The section heading that matched.'),
    }, ['heading']),
    IndexSummary: strict('The index being served.', {
      formatVersion: int('The index format version.', { const: INDEX_FORMAT_VERSION }),
      builtAt: str('When it was built.', { format: 'date-time' }),
      documents: int('Pages searchable.'),
      terms: int('Distinct terms.'),
      bytesOnDisk: int('Bytes of the index generation on disk.'),
      unknownLanguage: int('Pages whose language is unknown (none declared, none detected): lang: leaves them out.'),
      undated: int('Pages without a date (none declared, no Last-Modified trusted): after: and before: leave them out.'),
    }, ['unknownLanguage', 'undated']),
    CrawlStats: {
      type: 'object',
      description: 'The counters of the crawl the index was built from (every run of it).',
      properties: {
        startedAt: str('When the crawl started.', { format: 'date-time' }),
        finishedAt: str('When it ended; absent while running or after a stop.', { format: 'date-time' }),
        seeds: { type: 'array', items: { type: 'string' } },
        pagesByState: counts('Stored pages by outcome (ok, gone, error, redirect, duplicate, ...).'),
        pagesByStatus: counts('Stored pages by HTTP status ("0" when no response came).'),
        hosts: int('Hosts seen.'),
        requests: int('HTTP requests for pages and sitemaps.'),
        bytes: int('Body bytes downloaded.'),
        errors: int('Error pages.'),
        blockedByRule: counts('URLs robots.txt kept the crawl from, by "origin rule".'),
        trapsCut: counts('URLs cut as crawler traps, by rule.'),
        trapExamples: { type: 'object', additionalProperties: { type: 'string' }, description: 'The first URL each trap rule cut.' },
        duplicates: int('Pages whose content repeated an earlier page.'),
        outOfScope: int('Links outside the crawl scope.'),
        byHost: { type: 'object', description: 'Per origin: pages stored, errors among them, URLs cut.', additionalProperties: strict('One origin.', { pages: { type: 'integer' }, errors: { type: 'integer' }, cut: { type: 'integer' } }) },
        errorsByReason: counts('Error pages by reason (ECONNREFUSED, HTTP 5xx, ...).'),
      },
      required: ['startedAt', 'seeds', 'pagesByState', 'pagesByStatus', 'hosts', 'requests', 'bytes', 'errors', 'blockedByRule', 'trapsCut', 'duplicates', 'outOfScope'],
      additionalProperties: false,
    },
    HostStatus: strict('One host of a running (or the last) crawl.', {
      origin: str('scheme://host:port.'),
      pages: int('Pages stored.'),
      errors: int('Error pages among them.'),
      queued: int('URLs waiting in its queue.'),
      inFlight: int('Requests under way.'),
      delayMs: int('The wait between two requests to it now, milliseconds (the crawl delay or its Crawl-delay).'),
      pagesPerMinute: num('Pages stored per minute over the last half minute.'),
      blocked: int('URLs its robots.txt kept the crawl from.'),
      cut: int('URLs cut as crawler traps.'),
    }),
    CrawlStatus: strict('The live state of the data dir\'s crawl, written by the crawler about once a second.', {
      running: { type: 'boolean', description: 'False once the crawl has ended.' },
      pid: int('The crawling process.'),
      updatedAt: str('When this was written.', { format: 'date-time' }),
      pages: int('Pages stored, the whole crawl.'),
      pagesThisRun: int('Pages stored by this run.'),
      known: int('Pages stored plus queued or under way.'),
      queued: int('URLs queued.'),
      inFlight: int('Requests under way.'),
      pagesPerSecond: num('This run\'s average rate.'),
      secondsLeft: num('Estimated seconds left for the known work.'),
      errorsByReason: counts('Error pages by reason.'),
      hosts: { type: 'array', items: ref('HostStatus'), description: 'The 100 hosts with the most pages, most first.' },
      hostsTotal: int('Hosts the crawl knows, those listed among them.'),
      stats: ref('CrawlStats'),
    }, ['secondsLeft', 'hostsTotal']),
    StatsAnswer: strict('Crawl and index figures, as /stats shows them.', {
      index: ref('IndexSummary'),
      crawl: ref('CrawlStats'),
      mostLinked: {
        type: 'array',
        description: 'The pages with the most inbound links, most first.',
        items: strict('One page.', { url: str('The page.'), title: str('Its title.'), inbound: int('Distinct linking pages.'), inboundHosts: int('Distinct linking hosts.') }),
      },
      skipped: counts('Stored pages the indexer left out, by reason.'),
    }, ['crawl', 'mostLinked', 'skipped']),
  };

  const q = { name: 'q', in: 'query', required: true, description: `The query in Gleaner's query language (words, "phrases", -exclusions, OR, site:host, lang:xx, after:2024-03, before:2025); at most ${options.maxQueryChars} characters and ${options.maxQueryAtoms} words or operators, the rest ignored and listed in \`ignored\`.`, schema: { type: 'string', minLength: 1 } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gleaner search API',
      version: GLEANER_VERSION,
      description: 'Search a crawled site from programs. Answers are JSON; errors are JSON with an `error` message and a 4xx status. Nothing here needs a key. By default only pages of this gateway may call it from a browser; `gleaner serve --allow-origin ORIGIN` opens it (CORS) to other sites.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    paths: {
      '/api/search': {
        get: {
          summary: 'Search',
          description: 'Every word must match (AND) unless OR is written. Results come in rank order, each with its explanation when explain=1.',
          parameters: [
            q,
            { name: 'page', in: 'query', description: `Result page, 1 to ${options.maxPage}.`, schema: { type: 'integer', minimum: 1, maximum: options.maxPage, default: 1 } },
            { name: 'size', in: 'query', description: `Results per page, 1 to ${options.maxPageSize}.`, schema: { type: 'integer', minimum: 1, maximum: options.maxPageSize, default: options.pageSize } },
            { name: 'literal', in: 'query', description: 'Search the query exactly as typed: no automatic correction when it matches nothing.', schema: { type: 'integer', enum: [0, 1], default: 0 } },
            { name: 'complete', in: 'query', description: 'Asked as you type, at each keystroke: when the query has no page with every word, its last word (no space after it) is read as the start of a word, and the query with that word completed is searched in its place (completedFrom says so).', schema: { type: 'integer', enum: [0, 1], default: 0 } },
            { name: 'sort', in: 'query', description: 'The order of the results: relevance, or date, newest first (pages without a date after those with one, each day by relevance; no partial matches then).', schema: { type: 'string', enum: [...SORT_ORDERS], default: 'relevance' } },
            { name: 'explain', in: 'query', description: 'Give each result its explanation (why it scored what it did): most of an answer\'s bytes, so only when asked.', schema: { type: 'integer', enum: [0, 1], default: 0 } },
          ],
          responses: { 200: json('A page of results.', ref('SearchAnswer')), 400: errorResponse('No query, a page or size out of range, or an unknown sort.') },
        },
      },
      '/api/suggest': {
        get: {
          summary: 'Complete the last word, and offer pages',
          description: `Completions of the last word of \`q\` from the index vocabulary (at most ${options.suggestLimit}); the words before it are kept. Beside them, pages whose title or a section heading matches (at most ${options.suggestPagesLimit}). With format=opensearch the answer is an OpenSearch suggestions array, [query, [completions]], as browsers ask for it.`,
          parameters: [
            { name: 'q', in: 'query', description: `The text typed so far; only its first ${options.maxSuggestChars} characters are read.`, schema: { type: 'string' } },
            { name: 'format', in: 'query', description: 'opensearch for the OpenSearch suggestions format.', schema: { type: 'string', enum: ['opensearch'] } },
          ],
          responses: {
            200: {
              description: 'Completions.',
              content: {
                'application/json': { schema: ref('SuggestAnswer') },
                'application/x-suggestions+json': { schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], items: false } },
              },
            },
          },
        },
      },
      '/api/stats': {
        get: {
          summary: 'Crawl and index figures',
          responses: { 200: json('The figures /stats shows.', ref('StatsAnswer')) },
        },
      },
      '/api/stats/live': {
        get: {
          summary: 'The crawl, live',
          description: 'What the crawl in this data dir is doing now (or did last), as /stats shows it while it runs.',
          responses: { 200: json('The crawl status.', ref('CrawlStatus')), 404: errorResponse('No crawl has written a status in this data dir.') },
        },
      },
    },
    components: { schemas },
  };
}
