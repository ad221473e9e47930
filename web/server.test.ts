// The listening server's guards against clients that send and never read, with a real loopback server
// and raw sockets; small limits so the tests wait briefly. They assert what happens, never how fast.

import { connect, type AddressInfo, type Socket } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureIndex, type FixtureDir } from '../test/support/index-fixture.js';
import { gatewayPages } from '../test/support/web-corpus.js';
import { createApp } from './app.js';
import { openSearchEngine, type GleanerSearchEngine } from './search/index.js';
import { listen, untilInterrupted, type RunningServer } from './server.js';

let fixture: FixtureDir;
let engine: GleanerSearchEngine;

beforeAll(async () => {
  fixture = await buildFixtureIndex(gatewayPages());
  engine = await openSearchEngine(fixture.dataDir);
});

afterAll(async () => {
  engine.close();
  await fixture.cleanup();
});

/** A client that writes `text` and never reads, and the server's end of its connection. */
async function nonReader(s: RunningServer, text: string): Promise<{ client: Socket; serverSide: Socket }> {
  const accepted = new Promise<Socket>((resolve) => s.server.once('connection', resolve));
  const client = connect({ port: (s.server.address() as AddressInfo).port, host: '127.0.0.1' });
  client.pause();
  client.on('error', () => {});
  client.write(text);
  return { client, serverSide: await accepted };
}

/** Whether the server closed its end within `deadlineMs` (a paused client would not see the close: it
 * reads nothing). The deadline bounds a failing test; it is not a timing assert. */
function closedWithin(serverSide: Socket, deadlineMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (serverSide.destroyed) { resolve(true); return; }
    const timer = setTimeout(() => resolve(false), deadlineMs);
    serverSide.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

describe('clients that never read', () => {
  it('a connection pipelining more requests than the cap is dropped, and the server keeps answering', async () => {
    const s = await listen(createApp({ engine }), '127.0.0.1', 0, { maxPipelinedRequests: 4 });
    try {
      const { client, serverSide } = await nonReader(s, 'GET /api/search?q=crawler&size=50 HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(200));
      expect(await closedWithin(serverSide, 5000)).toBe(true);
      client.destroy();
      const res = await fetch(s.url + 'healthz');
      expect(res.status).toBe(200);
      // A client within the cap is answered every request.
      const within = await new Promise<string>((resolve) => {
        const c = connect({ port: (s.server.address() as AddressInfo).port, host: '127.0.0.1' });
        let got = '';
        c.on('data', (d: Buffer) => (got += d.toString('latin1')));
        c.on('end', () => resolve(got));
        c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3) + 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      });
      expect(within.match(/HTTP\/1\.1 200 /g)).toHaveLength(4);
    } finally {
      await s.close();
    }
  });

  it('a connection whose answer cannot be written for the send timeout is closed', async () => {
    // More than loopback's socket buffers hold, so the write stalls while the client reads nothing.
    const big = Buffer.alloc(64 * 1024 * 1024, 'x');
    const app = express();
    app.get('/big', (_req, res) => {
      res.type('text/plain').send(big);
    });
    const s = await listen(app, '127.0.0.1', 0, { sendTimeoutMs: 300 });
    try {
      const { client, serverSide } = await nonReader(s, 'GET /big HTTP/1.1\r\nHost: x\r\n\r\n');
      expect(await closedWithin(serverSide, 5000)).toBe(true);
      client.destroy();
    } finally {
      await s.close();
    }
  });
});

describe('untilInterrupted', () => {
  it('resolves on the first SIGINT or SIGTERM and leaves a listener, so a second does not end the process with 130', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const before = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
      const stopped = untilInterrupted();
      process.emit(signal);
      await stopped;
      // Node ends a process on a signal only when nothing listens: after the stop, something still does.
      const added = (name: 'SIGINT' | 'SIGTERM') => process.listeners(name).filter((l) => !before.has(l));
      expect(added('SIGINT')).toHaveLength(1);
      expect(added('SIGTERM')).toHaveLength(1);
      for (const name of ['SIGINT', 'SIGTERM'] as const) for (const l of added(name)) process.off(name, l);
    }
  });
});
