import { createServer } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenBelowEphemeral, refusingPort } from './quiet-port.js';

const connectError = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });

describe('quiet ports', () => {
  it('gives a port below where listen(0) lands, and it refuses', async () => {
    const port = await refusingPort();
    const given = createServer();
    await new Promise<void>((resolve) => given.listen(0, '127.0.0.1', resolve));
    const { port: ephemeral } = given.address() as { port: number };
    await new Promise((resolve) => given.close(resolve));
    expect(port).toBeLessThan(ephemeral);
    expect(await connectError(port)).toBe('ECONNREFUSED');
  });

  it('starts a server there that answers, and refuses once it is closed', async () => {
    const server = createServer((_req, res) => res.end('here'));
    const port = await listenBelowEphemeral(server);
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('here');
    await new Promise((resolve) => server.close(resolve));
    expect(await connectError(port)).toBe('ECONNREFUSED');
  });
});
