// A real PostgreSQL 15 (Debian's) for tests: a cluster made by initdb in a temp dir, listening on a unix
// socket there only (no TCP port), run as the `postgres` user because initdb and postgres refuse root.
// `stop` and `start` again on the same dir, for the restart test. A machine without PostgreSQL skips
// the tests with one line (CI=true fails, test/support/resources.ts).

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { requireResource } from './resources.js';

export const PG_BIN = '/usr/lib/postgresql/15/bin';

/** Whether tests needing PostgreSQL can run (prints the skip line / throws under CI=true). */
export function havePostgres(what: string): boolean {
  return requireResource(what, join(PG_BIN, 'initdb'));
}

/** Runs a command as `postgres` when this process is root (initdb refuses root), as itself otherwise. */
function asPostgres(command: string, args: string[]): { file: string; args: string[] } {
  return process.getuid?.() === 0 ? { file: 'runuser', args: ['-u', 'postgres', '--', command, ...args] } : { file: command, args };
}

export class PostgresServer {
  private child: ChildProcess | undefined;

  private constructor(
    readonly dir: string,
    /** fsync at commit, as a real server does; off for tests (speed), on for benches (honest figures). */
    private readonly fsync: boolean,
  ) {}

  /** The URL of database `name` on this server. */
  url(name = 'postgres'): string {
    return `postgres://postgres@localhost/${name}?host=${encodeURIComponent(join(this.dir, 'sock'))}`;
  }

  /** A new cluster in a temp dir, started. */
  static async create({ fsync = false } = {}): Promise<PostgresServer> {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-pg-'));
    chmodSync(dir, 0o777);
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
    const init = asPostgres(join(PG_BIN, 'initdb'), ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    execFileSync(init.file, init.args, { stdio: 'ignore' });
    execFileSync(asPostgres('mkdir', [join(dir, 'sock')]).file, asPostgres('mkdir', [join(dir, 'sock')]).args);
    const server = new PostgresServer(dir, fsync);
    await server.start();
    return server;
  }

  async start(): Promise<void> {
    const run = asPostgres(join(PG_BIN, 'postgres'), ['-D', join(this.dir, 'data'), '-k', join(this.dir, 'sock'), '-c', "listen_addresses=", '-c', `fsync=${this.fsync ? 'on' : 'off'}`]);
    this.child = spawn(run.file, run.args, { stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    for (;;) {
      const client = new pg.Client({ connectionString: this.url(), connectionTimeoutMillis: 1000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch {
        await client.end().catch(() => {});
        if (Date.now() > deadline) throw new Error(`PostgreSQL did not start in ${this.dir}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Creates database `name` (a store's own). */
  async createDatabase(name: string): Promise<string> {
    const client = new pg.Client({ connectionString: this.url() });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    return this.url(name);
  }

  /** Stops the server (fast shutdown: connections are cut, as a restart cuts them). */
  async stop(): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // pg_ctl, not a signal to runuser: the signal would stop runuser and leave postgres running.
    const stop = asPostgres(join(PG_BIN, 'pg_ctl'), ['stop', '-D', join(this.dir, 'data'), '-m', 'fast', '-w']);
    execFileSync(stop.file, stop.args, { stdio: 'ignore' });
    await exited;
    this.child = undefined;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
