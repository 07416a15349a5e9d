import { checkItems, type ItemOutcomes } from "./items.ts";
import { exactMcNemar } from "./mcnemar.ts";
import { mulberry32 } from "./prng.ts";

export interface PairedItemResult {
  /** Items both lists hold where the first's pass fraction is higher. */
  readonly better: number;
  /** Items both lists hold where the first's pass fraction is lower. */
  readonly worse: number;
  /** Items both lists hold with equal pass fractions. */
  readonly tied: number;
  /** Items in both lists: better + worse + tied. */
  readonly paired: number;
  /** Two-sided, from the sign-flip permutation test on the per-item differences. */
  readonly pValue: number;
}

/**
 * Compares two frameworks item by item, each item's repeats one unit: for every item both ran,
 * d = (first's pass fraction) − (second's), and the two-sided p of the sign-flip permutation
 * test on Σd (under the null hypothesis the two frameworks are exchangeable on every item, so
 * each d is as likely to have come out negated). When every fraction is 0 or 1 this is exactly
 * the exact McNemar test on the items (`exactMcNemar(better, worse)`).
 *
 * Items on one side only are not compared. No item in common gives p = 1 with paired = 0.
 * An impossible item or an id listed twice throws (see `checkItems`).
 */
export function pairedItemTest(first: readonly ItemOutcomes[], second: readonly ItemOutcomes[]): PairedItemResult {
  checkItems(first, "first items");
  checkItems(second, "second items");
  const secondById = new Map(second.map((item) => [item.id, item]));
  const differences: Fraction[] = [];
  let better = 0;
  let worse = 0;
  let tied = 0;
  for (const a of first) {
    const b = secondById.get(a.id);
    if (b === undefined) continue;
    // a.passes/a.runs − b.passes/b.runs over the common denominator, in integers: exact.
    const num = a.passes * b.runs - b.passes * a.runs;
    if (num > 0) better++;
    else if (num < 0) worse++;
    else tied++;
    if (num !== 0) differences.push({ num, den: a.runs * b.runs });
  }
  return { better, worse, tied, paired: better + worse + tied, pValue: signFlipPValue(differences) };
}

/** num/den with den > 0, num ≠ 0. */
export interface Fraction {
  readonly num: number;
  readonly den: number;
}

export interface SignFlipOptions {
  /** Most additions the exact distribution may take before the test samples instead. */
  readonly exactBudget?: number;
  readonly resamples?: number;
  readonly seed?: number;
}

/** Enough for thousands of disagreeing items at ten repeats in well under a second. */
const EXACT_BUDGET = 30_000_000;
/** The convolution holds two arrays of 2·span + 1 doubles: at most 64 MiB between them. */
const MAX_SPAN = 2_000_000;
const RESAMPLES = 10_000;
/** Fixed, so a report states the same p every time it is built from the same records. */
const SEED = 0x5eed_2024;

/**
 * The two-sided p of the sign-flip test on non-zero differences: P(|Σ ±dᵢ| >= |Σ dᵢ|) with the
 * signs independent fair coins.
 *
 * 1. Every |dᵢ| equal (any 0/1 comparison): Σ ±dᵢ is a scaled Binomial(m, 1/2), so the p is the
 *    exact sign test, `exactMcNemar`, for any m.
 * 2. Otherwise, on the integer grid of the common denominator, the exact distribution of Σ ±dᵢ by
 *    convolution, while that takes at most `exactBudget` additions and its support fits in memory.
 * 3. Beyond, a seeded Monte Carlo estimate (1 + hits)/(1 + resamples) (never 0, a valid p).
 */
export function signFlipPValue(differences: readonly Fraction[], options: SignFlipOptions = {}): number {
  const m = differences.length;
  if (m === 0) return 1;
  const resamples = options.resamples ?? RESAMPLES;
  const seed = options.seed ?? SEED;
  const steps = integerSteps(differences);
  if (steps === undefined) {
    // No exact grid (dozens of different repeat counts): sample on the doubles, and count a sum
    // that equals the observed one up to rounding as reaching it.
    const values = differences.map((d) => d.num / d.den);
    const observed = Math.abs(values.reduce((a, v) => a + v, 0));
    return sampledTail(values, observed * (1 - 1e-9), resamples, seed);
  }
  if (steps.every((s) => Math.abs(s) === Math.abs(steps[0]!))) {
    const up = steps.filter((s) => s > 0).length;
    return exactMcNemar(up, m - up).pValue;
  }
  const observed = Math.abs(steps.reduce((a, s) => a + s, 0));
  // Smallest first: the support grows slowly, and the convolution's work is its running width.
  const magnitudes = steps.map(Math.abs).sort((a, b) => a - b);
  let work = 0;
  let reach = 0;
  for (const step of magnitudes) work += 2 * (reach += step) + 1;
  if (work <= (options.exactBudget ?? EXACT_BUDGET) && reach <= MAX_SPAN) return exactTail(magnitudes, reach, observed);
  return sampledTail(steps, observed, resamples, seed);
}

/**
 * The differences as integers on a common grid, divided by their greatest common divisor;
 * `undefined` when that grid is past what doubles count exactly. Each den divides the product
 * of two repeat counts, so any run with a handful of different counts per item has one.
 */
function integerSteps(differences: readonly Fraction[]): number[] | undefined {
  const reduced = differences.map(({ num, den }) => {
    const g = gcd(Math.abs(num), den);
    return { num: num / g, den: den / g };
  });
  let grid = 1;
  for (const d of reduced) {
    grid = lcm(grid, d.den);
    // Every |d| <= 1, so no step exceeds the grid and no sum of them m·grid.
    if (!Number.isSafeInteger(grid * differences.length)) return undefined;
  }
  const steps = reduced.map((d) => d.num * (grid / d.den));
  const common = steps.reduce((g, s) => gcd(g, Math.abs(s)), 0);
  return steps.map((s) => s / common);
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}

function lcm(a: number, b: number): number {
  return (a / gcd(a, b)) * b;
}

/** P(|S| >= observed) for S = Σ ±stepᵢ (steps > 0), by convolution over S's support [−span, span]. */
function exactTail(steps: readonly number[], span: number, observed: number): number {
  if (observed === 0) return 1;
  let current = new Float64Array(2 * span + 1);
  let next = new Float64Array(2 * span + 1);
  current[span] = 1;
  let reach = 0; // the support so far is [−reach, reach]
  for (const step of steps) {
    next.fill(0, span - reach - step, span + reach + step + 1);
    for (let s = span - reach; s <= span + reach; s++) {
      const half = current[s]! / 2;
      if (half === 0) continue;
      next[s - step]! += half;
      next[s + step]! += half;
    }
    [current, next] = [next, current];
    reach += step;
  }
  // S is symmetric, so P(|S| >= t) = 2·P(S >= t) for t > 0; the smallest terms are added first.
  let tail = 0;
  for (let s = span + reach; s >= span + observed; s--) tail += current[s]!;
  return Math.min(1, 2 * tail);
}

/** The Monte Carlo estimate of P(|Σ ±stepᵢ| >= observed); observed 0 is certain. */
function sampledTail(steps: readonly number[], observed: number, resamples: number, seed: number): number {
  if (observed <= 0) return 1;
  const random = mulberry32(seed);
  let hits = 0;
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    let bits = 0;
    for (let i = 0; i < steps.length; i++) {
      // One draw of the generator is 32 fair coins (its outputs are multiples of 2⁻³²).
      if ((i & 31) === 0) bits = random() * 4294967296;
      sum += (bits >>> (i & 31)) & 1 ? steps[i]! : -steps[i]!;
    }
    if (Math.abs(sum) >= observed) hits++;
  }
  return (1 + hits) / (1 + resamples);
}
