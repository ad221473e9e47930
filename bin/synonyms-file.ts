// `--synonyms FILE` of `gleaner serve`, `search` and `trace` (and the demo's own file): the file read
// here, at the edge, and its rules parsed by the query side (web/query/synonyms.ts). A file that cannot
// be read or says something wrong stops the command in one line naming it, before anything is served.

import { readFileSync } from 'node:fs';
import { GleanerError } from '../shared/errors.js';
import { parseSynonyms, type SynonymRules } from '../web/index.js';

export function readSynonymsFile(command: string, path: string): SynonymRules {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a file' : (e as Error).message;
    throw new GleanerError('BAD_ARGUMENT', `${command}: --synonyms ${path}: cannot read it: ${why}`);
  }
  return parseSynonyms(text, `${command}: --synonyms ${path}`);
}
