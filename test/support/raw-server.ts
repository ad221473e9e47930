// A server that answers each GET with raw bytes, for answers no HTTP server library would send (broken,
// lenient or hostile framing). Listens on loopback; records each request's path.

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** Bytes to send and close, or a function that takes the socket over. */
export type RawAnswer = string | Buffer | ((socket: Socket) => void);

/** Raw answers by path (a path not here is a 404); each request's path is recorded in `asked`. */
export async function rawServer(answers: Record<string, RawAnswer>): Promise<{ origin: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      const path = /^GET (\S+)/.exec(head)?.[1] ?? '?';
      head = '';
      asked.push(path);
      const answer = answers[path] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n';
      if (typeof answer === 'function') answer(socket);
      else socket.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
