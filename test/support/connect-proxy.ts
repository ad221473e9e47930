// An HTTP proxy on loopback that tunnels CONNECT requests, as a corporate proxy does for undici, and
// resolves host names of its own (a name this machine cannot resolve reaches a loopback server only
// through it). Records each tunnel asked for.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ConnectProxy {
  url: string;
  /** `host:port` of each CONNECT, in order. */
  tunnels: string[];
  close: () => Promise<void>;
}

/** `names` maps a host name to the loopback port it stands for. */
export async function connectProxy(names: Record<string, number>): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const open = new Set<Socket | Duplex>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    const host = target.replace(/:\d+$/, '');
    const port = names[host];
    client.on('error', () => {});
    open.add(client);
    if (port === undefined) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    open.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
