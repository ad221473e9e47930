// Property tests draw new random cases on every local run, to keep finding bugs; in CI (CI=true) they
// draw from one fixed seed, so a run is reproducible and a landing never depends on luck. A failure
// prints its seed and counterexample either way; FC_SEED=n reruns a given seed anywhere.

import fc from 'fast-check';

const seed = process.env.FC_SEED ?? (process.env.CI ? '20261122' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
