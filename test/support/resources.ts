// Files some tests read that a clone alone does not have: the conformance corpora in ../shared (beside
// the project folder) and the HTML of Debian documentation packages (/usr/share/doc). A developer's
// clone without them runs the rest of the suite, with one line per skipped group; CI (CI=true) always
// has them (.ci/run installs the packages, and CI clones with ../shared beside), so there an absent
// one is a failure, not a silent skip.

import { existsSync } from 'node:fs';

/**
 * Whether `path` exists, for a test group (`what`) that reads it. Absent: prints
 * `skipped: <what> needs <path> (absent)` and returns false, or throws when CI=true, failing the file.
 * Call it at the top of the test file and read the resource only when it returns true: the body of a
 * `describe.skipIf` still runs while vitest collects the tests.
 */
export function requireResource(what: string, path: string): boolean {
  if (existsSync(path)) return true;
  if (process.env.CI === 'true') {
    throw new Error(`${what} needs ${path}, which is absent; CI must provide it (.ci/run installs the Debian packages, ../shared comes with the checkout)`);
  }
  console.log(`skipped: ${what} needs ${path} (absent)`);
  return false;
}
