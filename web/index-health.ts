// Whether the index in use answers searches. A search that fails on a damaged index file (INDEX_FORMAT)
// marks the index being served as failing until another is served (another build time), so /healthz
// says so: it had said ok while every search answered 503.

import type { SearchEngine } from './search/index.js';

export class IndexHealth {
  private failing: { builtAt: string; message: string } | undefined;

  constructor(private readonly engine: SearchEngine) {}

  /** A search failed because of the index now served. */
  failed(message: string): void {
    this.failing = { builtAt: this.engine.summary().builtAt, message };
  }

  /** Why the index now served fails searches; undefined while none has failed (or a new one came). */
  failure(): string | undefined {
    if (this.failing && this.failing.builtAt !== this.engine.summary().builtAt) this.failing = undefined;
    return this.failing?.message;
  }
}
