/**
 * The run's circuit breaker (issue 20): when the provider is down, every further item would only
 * grind through its retries to the same infra error. After `threshold` provider faults in a row
 * across the run, counted over the attempts of finished items in the order they finished, the
 * breaker trips once: the session stops dispatching, the items in flight finish, and the CLI exits
 * 3 with the resume command. Its threshold is the run config's `maxProviderFaults` (default and
 * why: config/arena-config.ts). Any served attempt resets the count, so a provider that fails every
 * second request (a rate limit) never trips it: that is the frameworks' retries to handle.
 */
import { faultName, itemFaults, type LegAttempt } from "./provider-faults.ts";

export class CircuitBreaker {
  readonly #threshold: number;
  #streak = 0;
  #tripped = false;

  /** `threshold` 0 turns the breaker off. */
  constructor(threshold: number) {
    this.#threshold = threshold;
  }

  /** Faults in a row so far. */
  get streak(): number {
    return this.#streak;
  }

  /**
   * One finished item's attempts, per leg, in order. Returns the reason the first time the streak
   * reaches the threshold (one line, naming the count and the last fault), else undefined.
   */
  observe(legs: readonly (readonly LegAttempt[])[]): string | undefined {
    const f = itemFaults(legs);
    if (f.faults.length === 0 && !f.anyServed) return undefined;
    this.#streak = f.anyServed ? f.trailingFaults : this.#streak + f.faults.length;
    if (this.#tripped || this.#threshold === 0 || this.#streak < this.#threshold) return undefined;
    this.#tripped = true;
    const last = f.faults.at(-1)!;
    return `the provider failed ${this.#streak} attempts in a row (the last: ${faultName(last)}); the circuit breaker stopped dispatching items (ARENA_MAX_PROVIDER_FAULTS=${this.#threshold})`;
  }
}
