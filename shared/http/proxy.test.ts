import { describe, expect, it } from 'vitest';
import { proxiedBy, proxyFromEnv } from './proxy.js';

describe('the proxy the environment names, as wget and curl read it', () => {
  it('is none when no proxy variable is set, or NO_PROXY is *', () => {
    expect(proxyFromEnv({})).toBeUndefined();
    expect(proxyFromEnv({ HTTP_PROXY: 'http://p:3128', NO_PROXY: '*' })).toBeUndefined();
  });

  it('takes lower-case names first, and HTTP_PROXY for https when HTTPS_PROXY is unset', () => {
    expect(proxyFromEnv({ http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:2' })).toMatchObject({ httpProxy: 'http://lower:1', httpsProxy: 'http://lower:1' });
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://s:3' })).toMatchObject({ httpsProxy: 'http://s:3' });
    expect(proxyFromEnv({ HTTPS_PROXY: 'http://s:3' })?.httpProxy).toBeUndefined();
  });

  it('sends a URL through the proxy of its scheme, unless NO_PROXY names its host, a parent domain, or its host and port', () => {
    const s = proxyFromEnv({ HTTP_PROXY: 'http://p:3128', HTTPS_PROXY: 'http://ps:3129', NO_PROXY: '.corp.example, intranet:8080' })!;
    expect(proxiedBy('http://www.example.org/', s)).toBe('http://p:3128');
    expect(proxiedBy('https://www.example.org/', s)).toBe('http://ps:3129');
    expect(proxiedBy('http://corp.example/', s)).toBeUndefined();
    expect(proxiedBy('http://wiki.corp.example/page', s)).toBeUndefined();
    expect(proxiedBy('http://intranet:8080/', s)).toBeUndefined();
    expect(proxiedBy('http://intranet/', s)).toBe('http://p:3128');
    expect(proxiedBy('http://notcorp.example/', s)).toBe('http://p:3128');
  });

  it('asks loopback directly, whatever NO_PROXY says', () => {
    const s = proxyFromEnv({ HTTP_PROXY: 'http://p:3128' })!;
    for (const url of ['http://localhost:3000/', 'http://127.0.0.1:8080/x', 'http://[::1]:9/']) expect(proxiedBy(url, s)).toBeUndefined();
  });

  it('sends https through HTTP_PROXY when HTTPS_PROXY is unset', () => {
    const s = proxyFromEnv({ HTTP_PROXY: 'http://p:3128' })!;
    expect(proxiedBy('https://www.example.org/', s)).toBe('http://p:3128');
  });
});
