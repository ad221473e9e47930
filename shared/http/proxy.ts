// An HTTP proxy named by the environment, the variables wget, curl and Scrapy read: HTTP_PROXY for http
// URLs, HTTPS_PROXY for https ones (HTTP_PROXY when it is unset, as undici's EnvHttpProxyAgent has it,
// where curl would go direct), lower-case names first, and NO_PROXY listing the hosts asked directly (a name also covers its subdomains; `host:port` only that port; `*`
// every host). Loopback (localhost, 127.0.0.1, [::1]) is always asked directly, as Go's HTTP client
// does: a proxy cannot reach this machine's own servers. undici's EnvHttpProxyAgent makes the requests;
// `proxiedBy` says the same thing for the one reader that connects by itself (lenient-request.ts),
// which is not used through a proxy. Pure.

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  /** NO_PROXY's entries and loopback's, comma-separated, as EnvHttpProxyAgent's `noProxy` takes them. */
  noProxy: string;
}

/** Always asked directly (EnvHttpProxyAgent compares a URL's `host` without its port, brackets kept). */
export const LOOPBACK_HOSTS = 'localhost,127.0.0.1,[::1]';

type Env = Readonly<Record<string, string | undefined>>;

function first(env: Env, ...names: string[]): string | undefined {
  for (const name of names) {
    const v = env[name]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** The proxy settings the environment asks for, or undefined when it names no proxy (or NO_PROXY is `*`). */
export function proxyFromEnv(env: Env = process.env): ProxySettings | undefined {
  const httpProxy = first(env, 'http_proxy', 'HTTP_PROXY');
  const httpsProxy = first(env, 'https_proxy', 'HTTPS_PROXY') ?? httpProxy;
  const none = first(env, 'no_proxy', 'NO_PROXY');
  if ((httpProxy === undefined && httpsProxy === undefined) || none === '*') return undefined;
  const noProxy = [none, LOOPBACK_HOSTS].filter((s) => s !== undefined).join(',');
  return { ...(httpProxy === undefined ? {} : { httpProxy }), ...(httpsProxy === undefined ? {} : { httpsProxy }), noProxy };
}

/** The proxy a request to `url` goes through under `settings` (EnvHttpProxyAgent's rule), or undefined
 * when it is asked directly. */
export function proxiedBy(url: string, settings: ProxySettings | undefined): string | undefined {
  if (settings === undefined) return undefined;
  const u = URL.parse(url);
  if (u === null) return undefined;
  const proxy = u.protocol === 'https:' ? settings.httpsProxy : settings.httpProxy;
  if (proxy === undefined) return undefined;
  const host = u.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number(u.port) || (u.protocol === 'https:' ? 443 : 80);
  for (const raw of settings.noProxy.split(/[,\s]/)) {
    if (raw === '') continue;
    const m = /^(.+):(\d+)$/.exec(raw);
    const entryHost = (m ? m[1]! : raw).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === entryHost || host.endsWith(`.${entryHost}`)) return undefined;
  }
  return proxy;
}
