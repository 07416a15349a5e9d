/**
 * The values probes put into the config where a library default could pass by accident or a
 * fixture could special-case a known value: a model id, a temperature, two iteration caps, the
 * request timeout.
 * They are drawn per run (per process) from one seed, so no adapter can recognise "the probe's
 * model"; the seed is in every run (WireRun.config) and in the judges' messages, and
 * `ARENA_PROBE_SEED=<seed>` draws the same values again to reproduce a failure.
 */
import { createHash, randomBytes } from "node:crypto";
import { DEFAULTS } from "../config/arena-config.ts";

/** This process's seed: ARENA_PROBE_SEED when given (reproducing a run), otherwise fresh. */
export const PROBE_SEED = process.env.ARENA_PROBE_SEED?.trim() || randomBytes(8).toString("hex");

/** A number in [0, 1) that depends only on the seed and `label`. */
export function draw(seed: string, label: string): number {
  return createHash("sha256").update(`${seed}\u0000${label}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** One of `choices`, by the seed and `label`. */
export function pick<T>(seed: string, label: string, choices: readonly T[]): T {
  return choices[Math.floor(draw(seed, label) * choices.length)]!;
}

/** Temperatures libraries default to (or round to): a canary must be none of them. */
const DEFAULT_TEMPERATURES = new Set([0, 0.2, 0.5, 0.7, 1, 2]);

export interface Canary {
  readonly seed: string;
  readonly model: string;
  readonly temperature: number;
}

/** §8: a model id no library defaults to, and a temperature no library defaults to. */
export function drawCanary(seed: string = PROBE_SEED): Canary {
  // No fixed prefix ("canary-…" would be a constant to match): a family, a version and a suffix, all drawn.
  const family = pick(seed, "model-family", ["orin", "velda", "kestra", "lumo", "tarsa", "quill", "brava", "sorel", "mirra", "dune"]);
  const hex = createHash("sha256").update(`${seed}\u0000model`).digest("hex");
  const model = `${family}-${1 + Math.floor(draw(seed, "model-major") * 5)}.${Math.floor(draw(seed, "model-minor") * 10)}-${hex.slice(0, 6)}`;
  let temperature = 0.05 + Math.floor(draw(seed, "temperature") * 180) / 100;
  temperature = Math.round(temperature * 100) / 100;
  if (DEFAULT_TEMPERATURES.has(temperature)) temperature = Math.round((temperature + 0.03) * 100) / 100;
  return { seed, model, temperature };
}

/**
 * §3: two different caps, neither the default budget, so a hard-coded cap (any one number) cannot
 * pass both and the default cannot pass either.
 */
export function drawCaps(seed: string = PROBE_SEED): readonly [number, number] {
  const choices = [3, 4, 5, 7, 8, 9].filter((n) => n !== DEFAULTS.maxToolIterations);
  const first = choices[Math.floor(draw(seed, "cap-a") * choices.length)]!;
  const rest = choices.filter((n) => n !== first);
  return [first, rest[Math.floor(draw(seed, "cap-b") * rest.length)]!];
}

/**
 * §11: the request timeout T of the timing runs (and 2T), in seconds. Never a round number a
 * library or an adapter would pick, and short enough to keep the runs fast; no shorter than
 * 0.7 s, because the gateway measures hold times to within a few hundredths of a second and the
 * 2T/T ratio must stay readable. A fixed 1 s timeout still passes "honoured" at every T here
 * (1 s is within [T - slack, T + 1 s)) and fails "doubles": that is what the second run is for.
 */
export function drawTimeout(seed: string = PROBE_SEED): { readonly seconds: number; readonly doubled: number } {
  const steps = [0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
  const seconds = steps[Math.floor(draw(seed, "timeout") * steps.length)]!;
  return { seconds, doubled: Math.round(seconds * 200) / 100 };
}
