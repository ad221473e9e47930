// The Debian documentation packages ../shared/sites/serve-docs.sh serves on loopback, read from disk by
// tests and benches that want real pages. A fresh clone's machine may not have them: tests check with
// requireResource (test/support/resources.ts); .ci/run installs them.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The doc sites (python 8081, rust 8082, postgres 8083): where their HTML lives, and the package that puts it there. */
export const DOC_SITES = [
  { name: 'Python', root: '/usr/share/doc/python3.11/html', debianPackage: 'python3.11-doc' },
  { name: 'Rust', root: '/usr/share/doc/rust-doc/html', debianPackage: 'rust-doc' },
  { name: 'PostgreSQL', root: '/usr/share/doc/postgresql-doc-15/html', debianPackage: 'postgresql-doc-15' },
] as const;

/** Up to `limit` `.html` files under `root`, in sorted directory order (the same pages every run). */
export function listHtml(root: string, limit: number): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      if (out.length >= limit) return;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.html')) out.push(path);
    }
  };
  walk(root);
  return out;
}
