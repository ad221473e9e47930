// CommitBatch without servers: a full group written at once, a partial one after the linger, a failed
// write rejecting its group only, and a drain before the stores close.

import { describe, expect, it } from 'vitest';
import { CommitBatch } from './commit-batch.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CommitBatch', () => {
  it('writes a full group at once, and a partial one after the linger', async () => {
    const groups: number[][] = [];
    const batch = new CommitBatch<number>((items) => {
      groups.push([...items]);
      return Promise.resolve();
    }, { maxPages: 3, lingerMs: 30 });
    const firstThree = Promise.all([batch.add(1), batch.add(2), batch.add(3)]);
    const fourth = batch.add(4);
    await firstThree;
    expect(groups).toEqual([[1, 2, 3]]);
    expect(batch.size).toBe(1);
    await fourth;
    expect(groups).toEqual([[1, 2, 3], [4]]);
  });

  it('writes each item alone when a group is one item', async () => {
    const groups: number[][] = [];
    const batch = new CommitBatch<number>((items) => {
      groups.push([...items]);
      return Promise.resolve();
    }, { maxPages: 1, lingerMs: 10_000 });
    await batch.add(1);
    await batch.add(2);
    expect(groups).toEqual([[1], [2]]);
  });

  it('rejects every item of a group whose write failed, and not the next group', async () => {
    let calls = 0;
    const batch = new CommitBatch<number>(
      () => {
        calls++;
        return calls === 1 ? Promise.reject(new Error('store down')) : Promise.resolve();
      },
      { maxPages: 2, lingerMs: 10 },
    );
    const outcomes = await Promise.allSettled([batch.add(1), batch.add(2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    await expect(batch.add(3)).resolves.toBeUndefined();
  });

  it('drains: what is queued is written, and writes under way are waited for', async () => {
    const written: number[] = [];
    const batch = new CommitBatch<number>(
      async (items) => {
        await sleep(20);
        written.push(...items);
      },
      { maxPages: 10, lingerMs: 60_000 },
    );
    const added = [batch.add(1), batch.add(2)];
    await batch.drain();
    expect(written).toEqual([1, 2]);
    await Promise.all(added);
  });
});
