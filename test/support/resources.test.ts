import { afterEach, describe, expect, it, vi } from 'vitest';
import { requireResource } from './resources.js';

describe('requireResource', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });
  const absent = '/nonexistent/gleaner-test-resource';

  it('says so for a present path', () => {
    vi.stubEnv('CI', 'true');
    expect(requireResource('this test', import.meta.dirname)).toBe(true);
  });
  it('skips with one line naming what and where when the path is absent', () => {
    vi.stubEnv('CI', '');
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    expect(requireResource('the corpus tests', absent)).toBe(false);
    expect(log.mock.calls).toEqual([[`skipped: the corpus tests needs ${absent} (absent)`]]);
  });
  it('fails instead under CI=true', () => {
    vi.stubEnv('CI', 'true');
    expect(() => requireResource('the corpus tests', absent)).toThrow(`the corpus tests needs ${absent}, which is absent`);
  });
});
