import { describe, expect, it } from 'vitest';
import { whyUnreachable, whyUnreachableCached } from './unreachable.js';
import { describeResult } from './fetch.js';

const net = (message: string) => whyUnreachable({ kind: 'network-error', message });

describe('why a robots.txt could not be had', () => {
  it('a host that takes no connection cannot be reached: asking again soon will not help', () => {
    expect(net('connect ECONNREFUSED 127.0.0.1:9')).toEqual({ reason: 'connection refused', cannotConnect: true });
    expect(net('getaddrinfo ENOTFOUND no-such-host.invalid')).toEqual({ reason: 'host name not found (DNS)', cannotConnect: true });
    expect(net('getaddrinfo EAI_AGAIN intranet')).toMatchObject({ cannotConnect: true });
    expect(net('connect EHOSTUNREACH 10.0.0.1:80')).toEqual({ reason: 'no route to the host', cannotConnect: true });
  });
  it('a TLS certificate this machine does not trust, or no TLS at all, fails the same on every try', () => {
    expect(net('self-signed certificate')).toEqual({ reason: 'TLS certificate not trusted (self-signed certificate; NODE_EXTRA_CA_CERTS=FILE trusts a private CA)', cannotConnect: true });
    for (const m of ['unable to verify the first certificate', 'unable to get local issuer certificate', 'certificate has expired', "Hostname/IP does not match certificate's altnames: IP: 10.0.0.1 is not in the cert's list: "]) {
      expect(net(m), m).toMatchObject({ cannotConnect: true });
    }
    expect(net('80ACC1E0C67F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number')).toEqual({ reason: 'no TLS on that port (is it http://?)', cannotConnect: true });
  });
  it('an answer that breaks HTTP/1.1 comes back the same on every try', () => {
    expect(net('Response does not match the HTTP/1.1 protocol (Invalid header token)')).toEqual({ reason: 'the answer is not valid HTTP/1.1 (Invalid header token)', cannotConnect: true });
    const undecodable = 'the body is not the Content-Encoding it says (br: Decompression failed)';
    expect(net(undecodable)).toEqual({ reason: undecodable, cannotConnect: true });
    // A body cut short of its Content-Length may be a dropped connection: asked again.
    expect(net('Response body length does not match content-length header')).toMatchObject({ cannotConnect: false });
  });
  it('a server that answers 5xx or too slowly may recover: asked again on the schedule', () => {
    const response = { kind: 'response' as const, status: 503, body: new Uint8Array(), headers: {} };
    expect(whyUnreachable(response)).toEqual({ reason: 'HTTP 503', cannotConnect: false });
    expect(net('The operation was aborted due to timeout')).toEqual({ reason: 'no answer (timed out)', cannotConnect: false });
    // The crawl's own request deadline (shared/http/transfer-limits.ts) is a time-out too.
    expect(net('deadline of 15 s exceeded')).toEqual({ reason: 'no answer (timed out)', cannotConnect: false });
    expect(net('other side closed')).toEqual({ reason: 'network error: other side closed', cannotConnect: false });
    expect(whyUnreachableCached(500)).toMatchObject({ reason: 'HTTP 500 (an earlier try, cached)', cannotConnect: false });
  });

  it('is told by `gleaner robots` and the gateway\'s checker in the words the crawl uses', () => {
    // It said "network error: self-signed certificate", without the cure the crawl names.
    expect(describeResult({ kind: 'network-error', message: 'self-signed certificate' })).toBe('TLS certificate not trusted (self-signed certificate; NODE_EXTRA_CA_CERTS=FILE trusts a private CA)');
    expect(describeResult({ kind: 'network-error', message: 'connect ECONNREFUSED 127.0.0.1:9' })).toBe('connection refused');
    expect(describeResult({ kind: 'network-error', message: 'other side closed' })).toBe('network error: other side closed');
  });
});
