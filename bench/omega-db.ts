// An Omega (Xapian) database over exactly the pages Gleaner indexed: the baseline of the relevance and
// speed benches. `omindex` (Debian xapian-omega) indexes symlinks to the served files, so robots.txt
// exclusions and duplicates are the same as Gleaner's.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface OmegaDb {
  /** The work folder; the database is `${dataDir}/docs`. */
  work: string;
  dataDir: string;
  /** Omega's URL of a result -> the page URL Gleaner knows it by. */
  pageOf: Map<string, string>;
  cleanup: () => void;
}

/** Mirrors `urls` of `site` (served from `docroot`) and runs omindex over them. */
export function buildOmegaDb(urls: readonly string[], site: string, docroot: string): OmegaDb {
  const work = mkdtempSync(join(tmpdir(), 'gleaner-omega-'));
  const mirror = join(work, 'mirror');
  // Omega names a result by its file under the mirror (site, a slash, the path, `index.html` kept): the
  // page URL it stands for, so a directory URL (`/news/`, as the intranet bench serves) is matched too.
  const pageOf = new Map<string, string>();
  for (const url of urls) {
    if (!url.startsWith(site)) continue;
    const path = url.slice(site.length).replace(/\?.*$/, '');
    const file = join(docroot, path === '' || path.endsWith('/') ? path + 'index.html' : path);
    if (!existsSync(file)) continue;
    const target = join(mirror, path === '' || path.endsWith('/') ? path + 'index.html' : path);
    mkdirSync(dirname(target), { recursive: true });
    if (!existsSync(target)) symlinkSync(file, target);
    pageOf.set(site.replace(/\/?$/, '/') + target.slice(mirror.length + 1), url);
  }
  const dataDir = join(work, 'data');
  mkdirSync(dataDir);
  execFileSync('omindex', ['--follow', '--db', join(dataDir, 'docs'), '--url', site, mirror], { stdio: 'ignore' });
  return { work, dataDir, pageOf, cleanup: () => rmSync(work, { recursive: true, force: true }) };
}
