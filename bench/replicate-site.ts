// Makes a large crawl out of a real one, for the query-speed bench at scale (issue 16): every stored
// page of the source data dirs is written `--copies` times into a new store, copy k under the host
// `c<k>.<host with dashes>.test` (127.0.0.1:8082 -> c3.127-0-0-1.test:8082; links rewritten the same
// way, so each copy is a site of its own with the same link graph), as if that many similar sites had
// been crawled. Then `gleaner index` builds it as any crawl.
//
//   node bin/gleaner crawl http://127.0.0.1:8082/ --data /tmp/rust-data --delay 0 --max-pages 40000
//   npx tsc -p tsconfig.json && node dist/bench/replicate-site.js --from /tmp/rust-data --to /tmp/rust-x5 --copies 5
//   node bin/gleaner index --data /tmp/rust-x5 && node dist/bench/query-speed.js --data /tmp/rust-x5 --no-xapian
//
// Several --from dirs are taken in turn (the Rust, Python and PostgreSQL docs), until --max-pages:
//   node dist/bench/replicate-site.js --from /tmp/rust-data --from /tmp/py-data --from /tmp/pg-data --to /tmp/big1m --copies 44

import { openStore, type PageRecord } from '../shared/store/index.js';
import { benchArgs, exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const { values: opts } = benchArgs({
  options: {
    from: { type: 'string', multiple: true, default: ['/tmp/rust-data'] },
    to: { type: 'string', default: '/tmp/rust-x5' },
    copies: { type: 'string', default: '5' },
    'max-pages': { type: 'string', default: String(Number.MAX_SAFE_INTEGER) },
  },
});

/** `url` as copy `k` has it (other hosts' URLs unchanged). A name, not `c<k>.127.0.0.1`: a host
 * ending in a number is an IPv4 address to the URL parser, which refuses the change. */
function rewrite(url: string, hosts: ReadonlySet<string>, k: number): string {
  try {
    const u = new URL(url);
    if (!hosts.has(u.host)) return url;
    u.hostname = `c${k}.${u.hostname.replace(/\./g, '-')}.test`;
    return u.href;
  } catch {
    return url;
  }
}

async function main(): Promise<void> {
  const copies = Number(opts.copies);
  const maxPages = Number(opts['max-pages']);
  const target = await openStore(opts.to);
  let written = 0;
  const started = performance.now();
  try {
    for (const from of opts.from) {
      const source = await openStore(from, { mustExist: true });
      try {
        const pages: PageRecord[] = [];
        for await (const page of source.pages()) pages.push(page);
        const hosts = new Set(pages.map((p) => new URL(p.url).host));
        for (let k = 0; k < copies && written < maxPages; k++) {
          for (const page of pages) {
            if (written >= maxPages) break;
            const copy: PageRecord = {
              ...page,
              url: rewrite(page.url, hosts, k),
              finalUrl: rewrite(page.finalUrl, hosts, k),
              links: page.links.map((l) => ({ ...l, url: rewrite(l.url, hosts, k) })),
              ...(page.canonical ? { canonical: rewrite(page.canonical, hosts, k) } : {}),
              ...(page.duplicateOf ? { duplicateOf: rewrite(page.duplicateOf, hosts, k) } : {}),
            };
            await target.commitFetch(undefined, copy, []);
            if (++written % 10_000 === 0) process.stdout.write(`${written} pages written\n`);
          }
        }
      } finally {
        await source.close();
      }
    }
  } finally {
    await target.close();
  }
  console.log(`${written} pages in ${opts.to} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
