import { describe, expect, it } from 'vitest';
import { childEnding, dataDirOf, heapPlan, untilOomReport, type HeapFacts } from './heap.js';

const GiB = 2 ** 30;
const facts = (over: Partial<HeapFacts> = {}): HeapFacts => ({ argv: ['index'], env: {}, execArgv: [], memoryBytes: 16 * GiB, heapLimitBytes: 4 * GiB, ...over });

describe('heapPlan', () => {
  it('runs `index` again with three quarters of the memory as its heap, when that is more than it has', () => {
    expect(heapPlan(facts())).toEqual({ run: 'again', heapMb: 12 * 1024 });
    expect(heapPlan(facts({ memoryBytes: 4 * GiB }))).toEqual({ run: 'here' });
  });
  it('runs other commands, and the process already run again, here', () => {
    expect(heapPlan(facts({ argv: ['serve'] }))).toEqual({ run: 'here' });
    expect(heapPlan(facts({ argv: [] }))).toEqual({ run: 'here' });
    expect(heapPlan(facts({ env: { GLEANER_HEAP_CHILD: '1' } }))).toEqual({ run: 'here' });
    expect(heapPlan(facts({ argv: ['index', '--help'] }))).toEqual({ run: 'here' });
  });
  it("leaves a heap set on Node's command line or in NODE_OPTIONS alone", () => {
    expect(heapPlan(facts({ execArgv: ['--max-old-space-size=900'] }))).toEqual({ run: 'here' });
    expect(heapPlan(facts({ env: { NODE_OPTIONS: '--enable-source-maps --max-old-space-size=900' } }))).toEqual({ run: 'here' });
  });
  it('takes GLEANER_HEAP_MB as asked, smaller than the default too, and refuses what is not a number of MiB', () => {
    expect(heapPlan(facts({ env: { GLEANER_HEAP_MB: '1024' } }))).toEqual({ run: 'again', heapMb: 1024 });
    expect(heapPlan(facts({ env: { GLEANER_HEAP_MB: '' } }))).toEqual({ run: 'again', heapMb: 12 * 1024 });
    for (const bad of ['lots', '1.5', '8', '-100']) expect(heapPlan(facts({ env: { GLEANER_HEAP_MB: bad } }))).toMatchObject({ run: 'refuse' });
  });
});

describe('childEnding', () => {
  it("reads V8's abort and the OOM killer as out of memory, other signals as 128 + their number, codes as they are", () => {
    expect(childEnding(null, 'SIGABRT')).toEqual({ code: 1, outOfMemory: true });
    expect(childEnding(134, null)).toEqual({ code: 1, outOfMemory: true });
    expect(childEnding(null, 'SIGKILL')).toEqual({ code: 1, outOfMemory: true });
    expect(childEnding(null, 'SIGTERM')).toEqual({ code: 143, outOfMemory: false });
    expect(childEnding(2, null)).toEqual({ code: 2, outOfMemory: false });
    expect(childEnding(0, null)).toEqual({ code: 0, outOfMemory: false });
  });
});

describe('untilOomReport', () => {
  const run = (chunks: string[]): { out: string[] } => {
    const out: string[] = [];
    const relay = untilOomReport((t) => out.push(t));
    for (const c of chunks) relay.push(c);
    relay.end();
    return { out };
  };
  it('passes text on at once, holding back only what may begin the report', () => {
    expect(run(['\rindex: reading pages 1,000', '\rindex: reading pages 2,000']).out).toEqual(['\rindex: reading pages 1,000', '\rindex: reading pages 2,000']);
    expect(run(['a warning <', 'b>']).out).toEqual(['a warning <', 'b>']);
    expect(run(['a warning\n<', '-- b\n', 'c']).out.join('')).toBe('a warning\n<-- b\nc');
  });
  it("drops V8's report from its first line on, also when it comes split across chunks", () => {
    const report = '\n<--- Last few GCs --->\n\n[1:0x1] 8519 ms: Mark-Compact\n\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit\n 1: 0xb8c3e0 node::Abort() [node]\n';
    expect(run(['\rindex: analysing', report]).out.join('')).toBe('\rindex: analysing');
    expect(run(['warn: a slow disk\n', report.slice(0, 12), report.slice(12)]).out.join('')).toBe('warn: a slow disk\n');
  });
});

describe('dataDirOf', () => {
  it('reads the data dir `gleaner index` was given, in either spelling, or the default', () => {
    expect(dataDirOf(['index', '--data', 'site', '--full'])).toBe('site');
    expect(dataDirOf(['index', '--full', '--data=/srv/gleaner'])).toBe('/srv/gleaner');
    expect(dataDirOf(['index'])).toBe('data');
  });
});
