// xorshift32: numbers in [0, 1) that are the same in every run for one seed, for fixtures and bench
// corpora that must not change between runs (property tests use fast-check's own seeds instead).

export function seededRandom(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}
