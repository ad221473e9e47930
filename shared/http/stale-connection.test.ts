import { describe, expect, it } from 'vitest';
import { closedWhenReused } from './stale-connection.js';

/** undici's SocketError as it arrives: a code and a copy of its socket's counters. */
const socketError = (bytesRead: number, code = 'UND_ERR_SOCKET') => ({ code, message: 'other side closed', socket: { localAddress: '127.0.0.1', localPort: 40000, remoteAddress: '127.0.0.1', remotePort: 80, bytesRead } });

describe('closedWhenReused', () => {
  it('is a connection that had carried an answer and closed before any byte of the next', () => {
    expect(closedWhenReused(socketError(202), 202)).toBe(true);
  });

  it('is not a new connection closed without an answer: that server is asked again only on the crawl\u2019s schedule', () => {
    expect(closedWhenReused(socketError(0), 0)).toBe(false);
    expect(closedWhenReused(socketError(0), undefined)).toBe(false);
  });

  it('is not an answer cut short: bytes came after the request went out', () => {
    expect(closedWhenReused(socketError(230), 202)).toBe(false);
  });

  it('is not another error, or no error at all', () => {
    expect(closedWhenReused(socketError(202, 'ECONNREFUSED'), 202)).toBe(false);
    expect(closedWhenReused({ code: 'UND_ERR_SOCKET' }, 202)).toBe(false);
    expect(closedWhenReused(new Error('other side closed'), 202)).toBe(false);
    expect(closedWhenReused(undefined, 202)).toBe(false);
    expect(closedWhenReused('UND_ERR_SOCKET', 202)).toBe(false);
  });
});
