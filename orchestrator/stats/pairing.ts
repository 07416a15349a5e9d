import { exactMcNemar, type McNemarResult } from "./mcnemar.ts";

/** One scored attempt: the fields of an item record the paired test needs. */
export interface Outcome {
  readonly item_id: string;
  readonly repeat: number;
  readonly passed: boolean;
}

/** Two frameworks' outcomes on the same (item_id, repeat). */
export interface OutcomePair {
  readonly item_id: string;
  readonly repeat: number;
  readonly first: boolean;
  readonly second: boolean;
}

export interface PairedOutcomes {
  /** In the order of the first list. */
  readonly pairs: readonly OutcomePair[];
  /** Outcomes of the first list with no counterpart in the second, and vice versa. */
  readonly unpairedFirst: number;
  readonly unpairedSecond: number;
}

/**
 * Matches two frameworks' outcomes by (item_id, repeat); outcomes present on one side only
 * are counted, not paired, since the paired test has nothing to compare them with.
 *
 * Throws an Error if either list holds the same (item_id, repeat) twice: which of the two
 * would be paired is ambiguous, and that is a bug upstream, not something to guess at.
 */
export function pairOutcomes(first: readonly Outcome[], second: readonly Outcome[]): PairedOutcomes {
  const secondByKey = index(second, "second");
  const pairs: OutcomePair[] = [];
  for (const [key, a] of index(first, "first")) {
    const b = secondByKey.get(key);
    if (b !== undefined) pairs.push({ item_id: a.item_id, repeat: a.repeat, first: a.passed, second: b.passed });
  }
  return { pairs, unpairedFirst: first.length - pairs.length, unpairedSecond: second.length - pairs.length };
}

function index(outcomes: readonly Outcome[], side: string): Map<string, Outcome> {
  const byKey = new Map<string, Outcome>();
  for (const o of outcomes) {
    // Encoded, not concatenated: ("a1", 2) and ("a", 12) must stay two keys.
    const key = JSON.stringify([o.item_id, o.repeat]);
    if (byKey.has(key)) throw new Error(`${side} list has ${o.item_id} repeat ${o.repeat} twice`);
    byKey.set(key, o);
  }
  return byKey;
}

/** {@link exactMcNemar} on two outcome lists, plus how the pairing went. */
export interface PairedMcNemarResult extends McNemarResult {
  /** Pairs compared (concordant ones included). */
  readonly paired: number;
  readonly unpairedFirst: number;
  readonly unpairedSecond: number;
}

/**
 * Pairs the outcomes ({@link pairOutcomes}) and runs the exact McNemar test on them: `b`
 * counts pairs the first list passed and the second failed, `c` the reverse. No pairs at all
 * gives b = c = 0 and p = 1; check `paired` before reading anything into that.
 */
export function pairedMcNemar(first: readonly Outcome[], second: readonly Outcome[]): PairedMcNemarResult {
  const { pairs, unpairedFirst, unpairedSecond } = pairOutcomes(first, second);
  let b = 0;
  let c = 0;
  for (const p of pairs) {
    if (p.first && !p.second) b++;
    else if (!p.first && p.second) c++;
  }
  return { ...exactMcNemar(b, c), paired: pairs.length, unpairedFirst, unpairedSecond };
}
