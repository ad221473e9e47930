// `gleaner repair [--data DIR]`: rebuilds a page store LevelDB reports damaged from what it can still
// read (shared/store/store.ts repairStore), and says what was kept, lost and queued again.

import { checkDataDir } from '../../shared/data-dir.js';
import { repairStore } from '../../shared/store/index.js';
import { parseCommandArgs, rejectPositionals, type Command } from '../command.js';

const HELP = `Usage: gleaner repair [--data DIR]

Rebuilds a page store that a command reported damaged ("the page store in DIR is damaged"), as
LevelDB's own repair does: every entry it can still read is kept, and each file it could not read
whole is moved to DIR/store/lost/ (nothing is deleted). URLs whose page or place in the queue was
lost are queued again, so \`gleaner crawl\` with the same --data fetches them; then run \`gleaner index\`.
Needs the store closed: stop any crawl or index using DIR first.

Options:
  --data DIR   data dir (default: data)
  -h, --help   this help
`;

const FLAGS = { data: { type: 'string' } } as const;

export const repairCommand: Command = {
  name: 'repair',
  summary: 'rebuild a damaged page store from what can still be read',
  help: HELP,
  async run(argv) {
    const { values: v, positionals, help } = parseCommandArgs('repair', argv, FLAGS);
    if (help) {
      process.stdout.write(HELP);
      return 0;
    }
    rejectPositionals('repair', positionals);
    const dataDir = v.data ?? 'data';
    checkDataDir(dataDir, { create: false, write: true });
    const r = await repairStore(dataDir);
    const lost =
      r.lostFiles === 0
        ? 'no file was lost'
        : `${r.lostFiles} damaged file${r.lostFiles === 1 ? '' : 's'} moved to ${dataDir}/store/lost/ after what could be read of ${r.lostFiles === 1 ? 'it' : 'them'} was kept; ${r.requeued} URL${r.requeued === 1 ? '' : 's'} seen but not stored queued again for \`gleaner crawl\``;
    process.stderr.write(`repaired the store in ${dataDir}: ${r.pages} pages kept; ${lost}\n`);
    return 0;
  },
};
