// URL canonicalization: the one function every stage uses, so that the crawler's frontier keys, the
// store's page keys, the indexer's link targets and the gateway's result links all agree.
//
// What it does (seed 003's aliases, seed 004's session ids and campaign tags):
// - resolves against a base; only http and https survive (javascript:, mailto:, data: ... never fetched);
// - lower-cases scheme and host, IDN to punycode, removes the default port, resolves dot segments,
//   makes an empty path `/` (all of these by the WHATWG URL parser); drops a host's trailing dot;
// - drops the fragment;
// - normalises percent-encoding: escapes of unreserved characters are decoded, other escapes upper-cased;
// - strips session ids and tracking parameters (query and `;jsessionid=` path parameters); a name that is
//   also a content key (`sid`) only when its value looks like a session id;
// - drops an empty `?`.

export interface CanonicalizeOptions {
  /** Query parameter names removed, compared case-insensitively. A trailing `*` matches a prefix; an entry
   * ending in `=<session-id>` (SESSION_VALUE) removes its parameter only when the value looks like one. */
  stripParams?: readonly string[];
}

/** Suffix of a stripParams entry whose name is also a content key: stripped only for a session-like value. */
export const SESSION_VALUE = '=<session-id>';

/** Session ids (seed 004: PHPSESSID, sid, jsessionid) and campaign tags (utm_*, click ids). */
export const DEFAULT_STRIP_PARAMS: readonly string[] = [
  'phpsessid',
  'jsessionid',
  'aspsessionid*',
  // Names sites also use for content: Slashdot's and PHP-Nuke's story id (`sid=99/01/01/121`, `sid=42`),
  // a conference programme's `session_id=12`. Stripping them whatever the value lost those pages.
  `sid${SESSION_VALUE}`,
  `sessionid${SESSION_VALUE}`,
  `session_id${SESSION_VALUE}`,
  'utm_*',
  'gclid',
  'fbclid',
  'msclkid',
  'yclid',
  '_openstat',
];

/**
 * Whether a parameter value looks like a session id rather than content: 20 or more letters and digits,
 * both present, as the random tokens servers hand out are (PHP 22-32, ASP.NET 24, Java 32; Heritrix takes
 * 32). A story id (`99/01/01/121`), a number, a word or a slug with dashes is content. Pure.
 */
export function sessionLikeValue(value: string): boolean {
  return value.length >= 20 && SESSION_TOKEN.test(value);
}
const SESSION_TOKEN = /^(?=[A-Za-z]*[0-9])(?=[0-9]*[A-Za-z])[A-Za-z0-9]+$/;

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes %XX escapes of unreserved characters and upper-cases the hex of the others. */
export function normalizePercentEncoding(s: string): string {
  // A `%` that starts no escape is written `%25` first: otherwise decoding `%%62` would leave `%b`,
  // a new escape, and a second pass would change the URL again.
  return s.replace(/%(?![0-9A-Fa-f]{2})/g, '%25').replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** Whether a parameter (its decoded name, its raw value) is stripped. */
type ParamMatcher = (name: string, value: string) => boolean;

function paramMatcher(entries: readonly string[]): ParamMatcher {
  // Per lower-case name (or prefix): whether only a session-like value is stripped.
  const exact = new Map<string, boolean>();
  const prefixes: Array<[string, boolean]> = [];
  for (const entry of entries) {
    let lower = entry.toLowerCase();
    const sessionOnly = lower.endsWith(SESSION_VALUE);
    if (sessionOnly) lower = lower.slice(0, -SESSION_VALUE.length);
    if (lower.endsWith('*')) prefixes.push([lower.slice(0, -1), sessionOnly]);
    else exact.set(lower, sessionOnly && exact.get(lower) !== false); // a plain entry wins
  }
  const stripped = (sessionOnly: boolean | undefined, value: string) => sessionOnly !== undefined && (!sessionOnly || sessionLikeValue(value));
  return (name, value) => {
    const lower = name.toLowerCase();
    if (stripped(exact.get(lower), value)) return true;
    return prefixes.some(([p, sessionOnly]) => lower.startsWith(p) && stripped(sessionOnly, value));
  };
}

const defaultMatcher = paramMatcher(DEFAULT_STRIP_PARAMS);
// Callers pass the same options array for every link of a crawl; compile it once per array.
const matchers = new WeakMap<readonly string[], ParamMatcher>();

function cachedMatcher(names: readonly string[]): ParamMatcher {
  let m = matchers.get(names);
  if (m === undefined) matchers.set(names, (m = paramMatcher(names)));
  return m;
}

/** Whether DNS could hold the name (RFC 1035: at most 253 characters, labels of at most 63); an IPv6
 * literal always. A longer one was asked anyway, failed with EINVAL, and was retried as if the network
 * were down, its 400-character host name printed on every line of the summary. */
function resolvableHost(hostname: string): boolean {
  if (hostname.length <= 63 || hostname.startsWith('[')) return true;
  return hostname.length <= 253 && hostname.split('.').every((label) => label.length <= 63);
}

/**
 * Port 0 and the ports the Fetch standard's "bad port" list keeps browsers from (SMTP, IRC, NFS and
 * the like): a link to `http://host:25/` asks a mail server to read HTTP, which no crawler should do
 * for a page's author. Such a URL is no crawlable URL, as a `mailto:` link is not.
 */
const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113,
  115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563,
  587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/** Why canonicalizeUrl refuses `input`, for a message a user can act on. */
export function uncrawlableReason(input: string): string {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return 'not an http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not an http(s) URL';
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) return `port ${url.port} is not for the web (browsers refuse it, and so does Gleaner)`;
  return 'not a URL Gleaner can crawl';
}

/**
 * The canonical form of `input` (resolved against `base`), or undefined when it is not an http(s) URL
 * or cannot be parsed, or names a bad port. Pure; idempotent: canonicalizing a canonical URL returns it unchanged.
 */
export function canonicalizeUrl(input: string, base?: string, options: CanonicalizeOptions = {}): string | undefined {
  let url: URL;
  try {
    url = base === undefined ? new URL(input.trim()) : new URL(input.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // `example.com.` (fully qualified) and `example.com` name the same host.
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '');
  if (url.hostname === '' || !resolvableHost(url.hostname)) return undefined;
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) return undefined;
  // The result is rebuilt from protocol, host, path and query below, so fragment and credentials never
  // reach it; no need to clear them on the URL object (each setter re-serializes it).
  const strip = options.stripParams ? cachedMatcher(options.stripParams) : defaultMatcher;

  // Path parameters such as `;jsessionid=ABC` (Java servlets) ride inside a path segment.
  // Values are judged normalised (`%41` is `A`), so a second pass judges them the same: idempotent.
  const path = normalizePercentEncoding(url.pathname).replace(/;([^/;=]+)=([^/;]*)/g, (m, name: string, value: string) => (strip(name, value) ? '' : m));

  let query = '';
  if (url.search.length > 1) {
    const kept = url.search
      .slice(1)
      .split('&')
      .map(normalizePercentEncoding)
      .filter((pair) => {
        if (pair === '') return false;
        const eq = pair.indexOf('=');
        const name = decodeSafely(eq === -1 ? pair : pair.slice(0, eq));
        return !strip(name, eq === -1 ? '' : pair.slice(eq + 1));
      });
    if (kept.length > 0) query = '?' + kept.join('&');
  }
  return `${url.protocol}//${url.host}${path}${query}`;
}

/** What a canonicalizer was built from: recorded in the store (shared/store/canonicalizer-record.ts) so every
 * stage that reads the crawl canonicalizes as the crawl did. */
export interface CanonicalizerSettings {
  stripParams: string[];
}

export interface Canonicalizer {
  readonly settings: CanonicalizerSettings;
  /** canonicalizeUrl with these settings. */
  readonly canonicalize: (input: string, base?: string) => string | undefined;
}

/** The crawl's one canonicalizer, from its options (DEFAULT_STRIP_PARAMS when none are given). */
export function makeCanonicalizer(options: CanonicalizeOptions = {}): Canonicalizer {
  const settings: CanonicalizerSettings = { stripParams: [...(options.stripParams ?? DEFAULT_STRIP_PARAMS)] };
  // One array for every call, so canonicalizeUrl compiles the parameter matcher once.
  const compiled: CanonicalizeOptions = { stripParams: settings.stripParams };
  return { settings, canonicalize: (input, base) => canonicalizeUrl(input, base, compiled) };
}

function decodeSafely(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * `url` (canonical) with its query parameters in order of name, stable (the values of one name keep
 * their order: `?tag=b&tag=a` need not be `?tag=a&tag=b` to a server), and a first parameter without
 * `=` left first (routers read `?/blog/post&x=1` as the path). For "seen before" only: faceted navigation
 * links one listing with its parameters in every order, and Scrapy's request fingerprint and Crawlee's
 * unique key sort them the same way. Never the URL fetched or stored: robots.txt is written against
 * the URLs a site links (`Disallow: /*?sort=`), DESIGN.md "Query parameters keep their order". Pure.
 */
export function queryOrderKey(url: string): string {
  const q = url.indexOf('?');
  if (q === -1 || url.indexOf('&', q) === -1) return url;
  const pairs = url.slice(q + 1).split('&');
  const start = pairs[0]!.includes('=') ? 0 : 1;
  const named = pairs.slice(start).map((pair, i) => {
    const eq = pair.indexOf('=');
    return { pair, name: eq === -1 ? pair : pair.slice(0, eq), i };
  });
  named.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.i - b.i));
  return `${url.slice(0, q + 1)}${[...pairs.slice(0, start), ...named.map((n) => n.pair)].join('&')}`;
}

/** `scheme://host[:port]` of a URL: the unit robots.txt and politeness apply to. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** Host name (without port) of a URL, lower case. */
export function hostOf(url: string): string {
  return new URL(url).hostname;
}
