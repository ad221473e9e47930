// Accuracy of shared/analysis detectLanguage (what the indexer gives pages without `<html lang>`) on
// text whose language is known: the translated man pages Debian installs under /usr/share/man/LANG
// (troff requests and escapes stripped) and the English ones, and HTML pages that declare their
// language (the bundled demo site, the Python docs; tags stripped, the declaration not shown to the
// detector). Languages Gleaner has no analyzer for (de, it, pt...) should come out '' (unknown), never
// as one it has. Many "translated" man pages are partly or wholly English, so their rows understate.
//   npx tsc -p tsconfig.json && node dist/bench/language-detect.js [--per-language N]

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { detectLanguage } from '../shared/analysis/index.js';
import { exitOnHelp } from './usage.js';

exitOnHelp(import.meta.url);

const args = process.argv.slice(2);
const PER_LANGUAGE = Number(args[args.indexOf('--per-language') + 1] ?? 60) || 60;
const MAN = '/usr/share/man';
const KNOWN = ['en', 'es', 'fr', 'ru', 'ja', 'ko', 'zh_CN'];
const OTHER = ['de', 'it', 'pt', 'nl', 'pl'];

/** A man page's text without troff requests, fonts and escapes. */
function manText(path: string): string {
  const raw = path.endsWith('.gz') ? gunzipSync(readFileSync(path)).toString('utf8') : readFileSync(path, 'utf8');
  return raw
    .split('\n')
    .filter((line) => !line.startsWith('.') && !line.startsWith("'"))
    .join('\n')
    .replace(/\\f[BIRP]|\\f\(..|\\\(..|\\[-&e|^]|\\\*\(..|\\\*./g, ' ');
}

function pages(lang: string): string[] {
  const dir = lang === 'en' ? join(MAN, 'man1') : join(MAN, lang, 'man1');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .slice(0, PER_LANGUAGE)
    .map((f) => join(dir, f));
}

/** HTML files under `dir` (at most PER_LANGUAGE * 4) with their declared language and visible text. */
function htmlPages(dir: string): { lang: string; text: string }[] {
  if (!existsSync(dir)) return [];
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.html')).sort().slice(0, PER_LANGUAGE * 4);
  return files.map((f) => {
    const html = readFileSync(join(dir, f), 'utf8');
    const lang = (/<html[^>]*\blang="([a-z]{2})/i.exec(html)?.[1] ?? '').toLowerCase();
    const text = html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]+>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ');
    return { lang, text };
  });
}

const rows: string[] = [];
let right = 0;
let total = 0;
for (const lang of [...KNOWN, ...OTHER]) {
  const files = pages(lang);
  if (files.length === 0) continue;
  const want = OTHER.includes(lang) ? '' : lang.slice(0, 2);
  const answers = new Map<string, number>();
  let ok = 0;
  for (const f of files) {
    const got = detectLanguage(manText(f));
    answers.set(got, (answers.get(got) ?? 0) + 1);
    if (got === want) ok++;
  }
  right += ok;
  total += files.length;
  const spread = [...answers].sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l === '' ? 'unknown' : l} ${n}`).join(', ');
  rows.push(`| ${lang} | ${files.length} | ${want === '' ? 'unknown' : want} | ${(ok / files.length).toFixed(3)} | ${spread} |`);
}
for (const [name, dir] of [['demo site', 'bin/demo/site'], ['Python docs', '/usr/share/doc/python3.11/html']] as const) {
  const byLang = new Map<string, { ok: number; n: number; answers: Map<string, number> }>();
  for (const { lang, text } of htmlPages(dir)) {
    if (lang === '') continue;
    const got = detectLanguage(text);
    const row = byLang.get(lang) ?? { ok: 0, n: 0, answers: new Map<string, number>() };
    byLang.set(lang, row);
    row.n++;
    if (got === lang) row.ok++;
    row.answers.set(got, (row.answers.get(got) ?? 0) + 1);
  }
  for (const [lang, row] of byLang) {
    right += row.ok;
    total += row.n;
    const spread = [...row.answers].sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l === '' ? 'unknown' : l} ${n}`).join(', ');
    rows.push(`| ${name}, lang=${lang} | ${row.n} | ${lang} | ${(row.ok / row.n).toFixed(3)} | ${spread} |`);
  }
}
if (total === 0) {
  console.log(`skipped: needs man pages under ${MAN} (absent)`);
} else {
  console.log('| text | pages | expected | accuracy | answers |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log(`all: ${right}/${total} = ${(right / total).toFixed(3)}`);
}
