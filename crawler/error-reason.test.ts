import { describe, expect, it } from 'vitest';
import { errorReason } from './error-reason.js';

describe('error reasons', () => {
  it('the code, the HTTP class, or the words without their numbers', () => {
    expect(errorReason('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9')).toBe('ECONNREFUSED');
    expect(errorReason('UND_ERR_HEADERS_TIMEOUT: Headers Timeout Error')).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(errorReason('HTTP 503')).toBe('HTTP 5xx');
    expect(errorReason('HTTP 429')).toBe('HTTP 4xx');
    expect(errorReason('more than 5 redirects')).toBe('more than N redirects');
    expect(errorReason('redirect to an unusable location: javascript:x')).toBe('redirect to an unusable location');
    expect(errorReason(undefined)).toBe('unknown');
  });
});
