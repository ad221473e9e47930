// The IR test collections in ../shared/ir (docs.jsonl, queries.jsonl, qrels.tsv, CACM's links.tsv),
// read for the benches; and the plain BM25 every bench compares Gleaner against, computed in the same run.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexDocument } from '../indexer/index.js';
import { tokenize } from '../shared/analysis/index.js';

/** ../shared/ir from the project folder (benches run from there), or GLEANER_IR_DIR. */
export const IR_DIR = process.env.GLEANER_IR_DIR ?? join(process.cwd(), '..', 'shared', 'ir');
export const COLLECTIONS = ['cranfield', 'cisi', 'cacm', 'scifact'] as const;

export interface IrDoc {
  id: string;
  title: string;
  text: string;
}

export interface Collection {
  name: string;
  docs: IrDoc[];
  queries: { id: string; text: string }[];
  /** query id -> doc id -> grade */
  qrels: Map<string, Map<string, number>>;
  /** doc id -> citation in-links (CACM only) */
  inlinks?: Map<string, number>;
}

function jsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export function irAvailable(): boolean {
  return existsSync(IR_DIR);
}

export function loadCollection(name: string): Collection {
  const dir = join(IR_DIR, name);
  const docs = jsonLines<{ id: string | number; title?: string; text?: string }>(join(dir, 'docs.jsonl')).map((d) => ({
    id: String(d.id),
    title: d.title ?? '',
    text: d.text ?? '',
  }));
  const queries = jsonLines<{ id: string | number; text: string }>(join(dir, 'queries.jsonl')).map((q) => ({ id: String(q.id), text: q.text }));
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(dir, 'qrels.tsv'), 'utf8').split('\n')) {
    const p = line.trim().split(/\s+/);
    if (p.length < 3) continue;
    const [qid, did, rel] = p.length >= 4 ? [p[0]!, p[2]!, p[3]!] : [p[0]!, p[1]!, p[2]!];
    const grade = Number(rel);
    if (!Number.isFinite(grade)) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid)!.set(did, grade);
  }
  let inlinks: Map<string, number> | undefined;
  const linksPath = join(dir, 'links.tsv');
  if (existsSync(linksPath)) {
    inlinks = new Map();
    for (const line of readFileSync(linksPath, 'utf8').split('\n').slice(1)) {
      const [id, inCount] = line.split('\t');
      if (id && inCount !== undefined) inlinks.set(id, Number(inCount));
    }
  }
  return { name, docs, queries, qrels, ...(inlinks ? { inlinks } : {}) };
}

export const docUrl = (collection: string, id: string) => `https://ir.test/${collection}/${id}`;
export const docIdOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/** Collection documents as the indexer takes them; `copy` > 0 makes distinct copies (for the 100k bench). */
export function indexDocuments(c: Collection, copy = 0, useLinks = true): IndexDocument[] {
  return c.docs.map((d) => ({
    stored: {
      title: d.title,
      headings: [],
      body: d.text,
      url: docUrl(copy > 0 ? `${c.name}${copy}` : c.name, d.id),
      anchor: [],
      language: 'en',
    },
    host: 'ir.test',
    inbound: useLinks ? (c.inlinks?.get(d.id) ?? 0) : 0,
    inboundHosts: 0,
  }));
}

/**
 * Plain BM25 (k1 1.2, b 0.75, Lucene's idf) over title + text as one field, with the same tokenizer
 * (Porter stemming) and no stoplist: the reference of the table.
 */
export class PlainBm25 {
  private readonly postings = new Map<string, { doc: number; tf: number }[]>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private avg = 0;

  constructor(docs: readonly IrDoc[], private readonly k1 = 1.2, private readonly b = 0.75) {
    docs.forEach((d, doc) => {
      const tokens = tokenize(`${d.title} ${d.text}`);
      this.ids.push(d.id);
      this.lengths.push(tokens.length);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, n] of tf) {
        let list = this.postings.get(t);
        if (!list) this.postings.set(t, (list = []));
        list.push({ doc, tf: n });
      }
    });
    this.avg = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  /** The best `k` document ids for a query (distinct query tokens, OR). */
  search(text: string, k: number): string[] {
    const n = this.lengths.length;
    const scores = new Map<number, number>();
    for (const t of tokenize(text)) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / this.avg);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf) / (tf + norm));
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k)
      .map(([doc]) => this.ids[doc]!);
  }
}
