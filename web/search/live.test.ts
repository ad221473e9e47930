import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/index.js';
import { CURRENT_FILE, INDEX_FILES, currentGeneration, indexRoot } from '../../shared/index-format/index.js';
import { query, tempDataDir, writePages } from '../../test/support/index-fixture.js';
import { openLiveSearchEngine } from './index.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('openLiveSearchEngine', () => {
  it('picks up a re-index without a restart, and keeps the old index when a new one cannot be read', async () => {
    const { dir, cleanup } = await tempDataDir();
    cleanups.push(cleanup);
    await writePages(dir, [{ url: 'http://s.test/a', title: 'A', text: 'apples' }]);
    await buildIndex(dir);
    let reloaded: (outcome: { ok: boolean }) => void = () => {};
    const next = () => new Promise<{ ok: boolean }>((resolve) => (reloaded = resolve));
    const engine = await openLiveSearchEngine(dir, {}, { checkIntervalMs: 0, retryMinMs: 10, onReload: (o) => reloaded(o) });
    cleanups.push(() => {
      engine.close();
    });
    const urls = (q: string) => engine.search(query(q), { offset: 0, limit: 10 }).hits.map((h) => h.url);
    expect(urls('apples')).toEqual(['http://s.test/a']);

    await writePages(dir, [{ url: 'http://s.test/b', title: 'B', text: 'bananas' }]);
    await buildIndex(dir);
    let outcome = next();
    expect(urls('bananas')).toEqual([]); // still the old index while the new one loads
    expect(await outcome).toMatchObject({ ok: true });
    expect(urls('bananas')).toEqual(['http://s.test/b']);

    // A generation of another format: refused, and the index in use keeps answering.
    const gen = (await currentGeneration(dir))!;
    const bad = join(indexRoot(dir), 'gen-bad');
    await mkdir(bad);
    const manifest = JSON.parse(await readFile(join(gen, INDEX_FILES.manifest), 'utf8')) as Record<string, unknown>;
    await writeFile(join(bad, INDEX_FILES.manifest), JSON.stringify({ ...manifest, formatVersion: 999 }));
    await writeFile(join(indexRoot(dir), CURRENT_FILE), 'gen-bad\n');
    outcome = next();
    urls('apples');
    expect(await outcome).toMatchObject({ ok: false, generation: 'gen-bad' });
    expect(urls('bananas')).toEqual(['http://s.test/b']);

    // CURRENT naming a generation whose folder is not there yet, as a copy or rsync can write it: the
    // failure is reported, and the generation is tried again until it loads.
    await writeFile(join(indexRoot(dir), CURRENT_FILE), 'gen-later\n');
    outcome = next();
    urls('apples');
    expect(await outcome).toMatchObject({ ok: false, generation: 'gen-later' });
    await cp(gen, join(indexRoot(dir), 'gen-later'), { recursive: true });
    outcome = next();
    // Asked until the retry is due (no bound on when: the test fails by its own timeout).
    const asking = setInterval(() => urls('apples'), 10);
    try {
      expect(await outcome).toMatchObject({ ok: true, generation: 'gen-later' });
    } finally {
      clearInterval(asking);
    }
    expect(urls('bananas')).toEqual(['http://s.test/b']);
  });
});
