/**
 * Mulberry32 (Tommy Ettinger, 2017): a 32-bit-state generator, small enough to read and built
 * only from 32-bit integer operations, so a seed gives the same stream on every machine and
 * engine. Its 2³² period is ample for bootstrap resampling; it is not for cryptography.
 *
 * `seed` must be a safe integer (RangeError otherwise) and is taken modulo 2³². Returns a
 * function giving doubles uniform on [0, 1), each a multiple of 2⁻³².
 */
export function mulberry32(seed: number): () => number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  let state = seed >>> 0; // exact modulo 2^32 for any integer-valued double
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}
