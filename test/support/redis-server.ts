// A real redis-server (Debian's) for tests: on a unix socket in a temp dir (no port, nothing reachable
// from outside), with the settings the shared frontier's guarantees need (append-only file, fsync at
// every write, no RDB snapshots). `kill9` and `start` again on the same dir replay the append-only file,
// for the crash tests. A machine without redis-server skips the tests with one line (CI=true fails).

import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { requireResource } from './resources.js';

export const REDIS_SERVER = '/usr/bin/redis-server';

/** Whether tests needing redis-server can run (prints the skip line / throws under CI=true). */
export function haveRedisServer(what: string): boolean {
  return requireResource(what, REDIS_SERVER);
}

export interface RedisServerOptions {
  /** appendfsync: 'always' (the frontier's guarantees) or 'everysec' (the bench compares them). */
  appendfsync: 'always' | 'everysec' | 'no';
  /** How long start() waits for PING to answer. */
  startTimeoutMs: number;
}

const DEFAULTS: RedisServerOptions = { appendfsync: 'always', startTimeoutMs: 10_000 };

/** Sends PING on the socket; resolves true on +PONG, false on anything else (refused, loading...). */
function ping(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(socket);
    let reply = '';
    const done = (ok: boolean) => {
      c.destroy();
      resolve(ok);
    };
    c.setTimeout(1000, () => {
      done(false);
    });
    c.on('error', () => {
      done(false);
    });
    c.on('connect', () => c.write('PING\r\n'));
    c.on('data', (d) => {
      reply += d.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

export class RedisServer {
  private child: ChildProcess | undefined;
  private log = '';
  readonly socket: string;

  /** A server whose files (socket, append-only file) live in `dir`; call start(). */
  constructor(
    readonly dir: string,
    private readonly options: RedisServerOptions = DEFAULTS,
  ) {
    this.socket = join(dir, 'redis.sock');
  }

  /** The frontier URL of db `db` on this server. */
  url(db = 0): string {
    return `unix://${this.socket}?db=${String(db)}`;
  }

  /** Starts redis-server (replaying the dir's append-only file if any) and waits until PING answers. */
  async start(): Promise<void> {
    this.log = '';
    const args = ['--port', '0', '--unixsocket', this.socket, '--unixsocketperm', '700', '--dir', this.dir, '--appendonly', 'yes', '--appendfsync', this.options.appendfsync, '--save', '', '--daemonize', 'no', '--loglevel', 'warning'];
    const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout.on('data', (d: Buffer) => (this.log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (this.log += d.toString()));
    const deadline = Date.now() + this.options.startTimeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${String(child.exitCode)}: ${this.log}`);
      if (await ping(this.socket)) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    await this.kill9();
    throw new Error(`redis-server did not answer PING within ${String(this.options.startTimeoutMs)} ms: ${this.log}`);
  }

  private async stopWith(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  }

  /** Kills the server at once (no shutdown save): what is on disk is what fsync put there. */
  kill9(): Promise<void> {
    return this.stopWith('SIGKILL');
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing answers, as a hung server does. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  /** Lets a paused server go on (SIGCONT). */
  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Stops the server the ordinary way. */
  stop(): Promise<void> {
    return this.stopWith('SIGTERM');
  }
}

/** Starts a server in `dir`. */
export async function startRedisServer(dir: string, options: Partial<RedisServerOptions> = {}): Promise<RedisServer> {
  const server = new RedisServer(dir, { ...DEFAULTS, ...options });
  await server.start();
  return server;
}
