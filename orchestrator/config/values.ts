/**
 * One parser for every number the harness takes from the outside, whether it comes from the
 * environment (`ARENA_TEMPERATURE`) or a flag (`--concurrency`). `Number()` and `parseFloat()`
 * both accept far too much — `Number("0x2")` is 2, `Number("1e3")` is 1000, `Number("")` is 0
 * and `parseFloat("0.7x")` is 0.7 — so a typo would quietly become a different run. Here a value
 * is a plain decimal or it is refused, with an error naming where it came from.
 */
import { redactSecrets } from "../files/redact.ts";

/**
 * A configuration value that cannot be used. `variable` is the environment variable or flag
 * (`ARENA_TEMPERATURE`, `--concurrency`); the message is `<variable>: <problem>` and never
 * carries a secret (the API key's value is never quoted, and anything key-shaped is redacted).
 */
export class ConfigError extends Error {
  // Widened to `string` so that DotenvError, a ConfigError too, can name itself.
  override readonly name: string = "ConfigError";
  readonly variable: string;
  readonly problem: string;
  constructor(variable: string, problem: string, message = `${variable}: ${problem}`) {
    super(redactSecrets(message));
    this.variable = variable;
    this.problem = redactSecrets(problem);
  }
}

/**
 * The bound of a count flag that counts runs or cells (`--keep`, `--threshold`): far more than any
 * output root holds, yet small enough that a mistyped exponent is refused rather than obeyed.
 */
export const MAX_COUNT = 1_000_000;

/** Optional sign, digits, optional fraction — or a bare fraction (`.5`). Nothing else. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
const WHOLE = /^[+-]?\d+$/;

/** How a refused value is shown: quoted, shortened, and with anything key-shaped redacted. */
export function quoted(raw: string): string {
  const shown = raw.length > 40 ? `${raw.slice(0, 37)}...` : raw;
  return `'${redactSecrets(shown).replace(/[\u0000-\u001f\u007f]/g, "?")}'`;
}

export interface NumberRange {
  /** Smallest value allowed (inclusive). */
  readonly min?: number;
  /** Largest value allowed (inclusive). */
  readonly max?: number;
  /** Require a value strictly greater than `min`. */
  readonly exclusiveMin?: boolean;
}

function checkRange(value: number, raw: string, name: string, range: NumberRange): number {
  const { min, max, exclusiveMin = false } = range;
  const tooLow = min !== undefined && (exclusiveMin ? value <= min : value < min);
  const tooHigh = max !== undefined && value > max;
  if (!tooLow && !tooHigh) return value;
  let bound: string;
  if (min !== undefined && max !== undefined) bound = exclusiveMin ? `greater than ${min} and at most ${max}` : `between ${min} and ${max}`;
  else if (min !== undefined) bound = exclusiveMin ? `greater than ${min}` : `at least ${min}`;
  else bound = `at most ${max}`;
  throw new ConfigError(name, `${quoted(raw)} must be ${bound}`);
}

/** A plain decimal number (`0.7`, `60`, `.5`), or a {@link ConfigError} naming `name`. */
export function parseDecimal(raw: string, name: string, range: NumberRange = {}): number {
  const text = raw.trim();
  if (text === "") throw new ConfigError(name, "is empty");
  if (!DECIMAL.test(text)) throw new ConfigError(name, `${quoted(raw)} is not a number`);
  // Only digits get here, so Number() cannot reinterpret anything; a 400-digit value is still Infinity.
  const value = Number(text);
  if (!Number.isFinite(value)) throw new ConfigError(name, `${quoted(raw)} is too large`);
  return checkRange(value, raw, name, range);
}

/** A decimal number greater than 0 (timeouts, durations). */
export function parsePositiveNumber(raw: string, name: string, range: Omit<NumberRange, "min" | "exclusiveMin"> = {}): number {
  return parseDecimal(raw, name, { ...range, min: 0, exclusiveMin: true });
}

/** A whole number (`--repeat 3`), at least `min` (default 1), or a {@link ConfigError}. */
export function parseCount(raw: string, name: string, range: { readonly min?: number; readonly max?: number } = {}): number {
  const { min = 1, max } = range;
  const text = raw.trim();
  if (text === "") throw new ConfigError(name, "is empty");
  if (!WHOLE.test(text)) throw new ConfigError(name, `${quoted(raw)} is not a whole number`);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new ConfigError(name, `${quoted(raw)} is too large`);
  return checkRange(value, raw, name, { min, ...(max !== undefined ? { max } : {}) });
}
