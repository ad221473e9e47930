// The lists a site owner gives `gleaner serve`, `search` and `trace` (and the demo its own): the file
// read here, at the edge, its text parsed by the query side (web/query/synonyms.ts, promoted.ts). A file
// that cannot be read or says something wrong stops the command in one line naming it, before anything
// is served.

import { readFileSync } from 'node:fs';
import { GleanerError } from '../shared/errors.js';
import { parsePromoted, parseSynonyms, type PromotedRules, type SynonymRules } from '../web/index.js';

/** The text of the file `flag` names, or one line saying why it cannot be read. */
function readSiteFile(command: string, flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (e as Error).message;
    throw new GleanerError('BAD_ARGUMENT', `${command}: ${flag} ${path}: cannot read it: ${why}`);
  }
}

/** `--synonyms FILE`: Solr's synonyms.txt. */
export function readSynonymsFile(command: string, path: string): SynonymRules {
  return parseSynonyms(readSiteFile(command, '--synonyms', path), `${command}: --synonyms ${path}`);
}

/** `--promoted FILE`: Solr's elevate.xml. */
export function readPromotedFile(command: string, path: string): PromotedRules {
  return parsePromoted(readSiteFile(command, '--promoted', path), `${command}: --promoted ${path}`);
}
