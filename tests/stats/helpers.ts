import { expect } from "vitest";

/** Asserts |actual - expected| <= tol·|expected| (or exact equality when expected is 0). */
export function expectRelative(actual: number | undefined, expected: number, tol: number): void {
  expect(actual).toBeTypeOf("number");
  const err = Math.abs((actual as number) - expected);
  if (expected === 0) expect(actual).toBe(0);
  else expect(err / Math.abs(expected), `${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

/** C(n, k) exactly. */
export function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let c = 1n;
  for (let i = 1; i <= k; i++) c = (c * BigInt(n - k + i)) / BigInt(i);
  return c;
}

/** num/den as the nearest-ish double (relative error ~1e-16), for exact references. */
export function ratio(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  // Scale so the integer quotient carries 64 significant bits, then undo the scale in floats.
  const shift = den.toString(2).length - num.toString(2).length + 64;
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift));
  return Number(q) * 2 ** -shift;
}
