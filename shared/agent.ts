// Who Gleaner says it is: the product token, the version and where to read about the crawler, for every
// request it makes (crawl, robots.txt check, CLI). The version is package.json's, read at run time so a
// release bump is one edit.

import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The product token matched against robots.txt User-agent lines and agent-specific META. */
export const DEFAULT_AGENT = 'Gleaner';
export const GLEANER_INFO_URL = 'https://github.com/gleaner-search/gleaner#crawler';

/** Gleaner's package.json above `from`: shared/agent.ts in a checkout (tests), dist/shared/agent.js
 * once built, so the depth differs and the folder is searched upwards. */
export function readPackageVersion(from: string = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'gleaner' && typeof pkg.version === 'string') return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`Gleaner's package.json was not found above ${from}`);
  }
}

export const GLEANER_VERSION: string = readPackageVersion();

/** The User-Agent header: product token, version and where to read about the crawler (seed 003). */
export function userAgentHeader(agent: string): string {
  return `${agent}/${GLEANER_VERSION} (+${GLEANER_INFO_URL})`;
}
