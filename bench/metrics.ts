// IR metrics with trec_eval 10.0 semantics (as ../shared/ir/eval.mjs states them): a document is
// relevant when its grade is > 0; nDCG@10 uses the grade as linear gain and log2(rank + 1) discount;
// MAP@100 divides by all relevant documents; MRR@10 is 0 without a relevant document in the top 10;
// a query with no relevant document is not averaged; a query missing from the run scores 0.

export interface Metrics {
  ndcg10: number;
  map100: number;
  mrr10: number;
  recall100: number;
}

export const METRIC_NAMES: Record<keyof Metrics, string> = { ndcg10: 'nDCG@10', map100: 'MAP@100', mrr10: 'MRR@10', recall100: 'R@100' };

export function queryMetrics(ranked: readonly string[], grades: ReadonlyMap<string, number>): Metrics {
  const docs = [...new Set(ranked)];
  const relevant = [...grades.values()].filter((g) => g > 0).sort((a, b) => b - a);
  let dcg = 0;
  let idcg = 0;
  for (let i = 0; i < 10; i++) {
    const g = grades.get(docs[i] ?? '') ?? 0;
    if (i < docs.length && g > 0) dcg += g / Math.log2(i + 2);
    if (i < relevant.length) idcg += relevant[i]! / Math.log2(i + 2);
  }
  let found = 0;
  let precisionSum = 0;
  let rr = 0;
  for (let i = 0; i < Math.min(100, docs.length); i++) {
    if ((grades.get(docs[i]!) ?? 0) <= 0) continue;
    found++;
    precisionSum += found / (i + 1);
    if (i < 10 && rr === 0) rr = 1 / (i + 1);
  }
  const r = relevant.length;
  return { ndcg10: idcg > 0 ? dcg / idcg : 0, map100: r ? precisionSum / r : 0, mrr10: rr, recall100: r ? found / r : 0 };
}

/** Means over the judged queries that have a relevant document. */
export function meanMetrics(run: ReadonlyMap<string, readonly string[]>, qrels: ReadonlyMap<string, ReadonlyMap<string, number>>): Metrics & { queries: number } {
  const sum: Metrics = { ndcg10: 0, map100: 0, mrr10: 0, recall100: 0 };
  let n = 0;
  for (const [qid, grades] of qrels) {
    if (![...grades.values()].some((g) => g > 0)) continue;
    const m = queryMetrics(run.get(qid) ?? [], grades);
    for (const k of Object.keys(sum) as (keyof Metrics)[]) sum[k] += m[k];
    n++;
  }
  for (const k of Object.keys(sum) as (keyof Metrics)[]) sum[k] = n ? sum[k] / n : 0;
  return { ...sum, queries: n };
}
