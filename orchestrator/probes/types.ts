/**
 * The shape of a probe in the registry: `{ id, rule, setup, judge }` plus the hostile fixtures
 * that prove it can fail. `setup` is data (which named setup runs a subject gets, per case);
 * `judge` is pure (runs in, violations out), so the same function is asserted empty for every
 * real adapter, and shown to fail — exactly as designed — for each fixture.
 */
import type { ARENA_FIXTURES, FIXTURES } from "../../fixtures/catalogue.ts";
import type { SetupName, Subject } from "./setups.ts";
import type { WireRun } from "./wire.ts";

/** A hostile adapter, or a hostile arena (data a probe must find wanting, judged with the baseline as the subject). */
export type FixtureName = keyof typeof FIXTURES | keyof typeof ARENA_FIXTURES;

/** One judged unit of a probe (known findings are keyed by it): a name and the setup runs it reads. */
export interface ProbeCase {
  readonly id: string;
  /**
   * The first one is the case's primary run: if it could not be built, the case is not judged.
   * None: the case judges data alone (an arena's checks), the same for every subject.
   */
  readonly setups: readonly SetupName[];
  /**
   * The case runs on a pause arena: a catalogued adapter declared without resume (declarations.ts)
   * must come back `unsupported` there, exactly as declared, and one not declared must not.
   */
  readonly pauses?: boolean;
}

export interface JudgeInput {
  readonly probeCase: string;
  /** The case's setup runs, in `setups` order. */
  readonly runs: readonly WireRun[];
  readonly subject: Subject;
  /** Every tool any arena declares (a delegate may cover none of them). */
  readonly arenaTools: readonly string[];
}

export interface CaseOutcome {
  readonly id: string;
  readonly runs: readonly WireRun[];
  readonly violations: readonly string[];
}

/** Everything a fixture run produced, for its expectation. */
export interface HostileOutcome {
  readonly cases: readonly CaseOutcome[];
  /** Every case's violations, in case order. */
  readonly violations: readonly string[];
  /** Every run of every case. */
  readonly runs: readonly WireRun[];
}

export interface HostileCase {
  readonly fixture: FixtureName;
  /** What it must show, in a few words (the test title). */
  readonly shows: string;
  /** Narrow the fixture's subject: its scope (fewer schema arenas), the baseline pin. */
  readonly scope?: readonly string[];
  readonly baseline?: boolean;
  /** Run only these cases of the probe (default: every case the subject gets). */
  readonly cases?: readonly string[];
  /** The fixture's own cases instead of the probe's (a narrower setup the judge knows by case id). */
  readonly own?: readonly ProbeCase[];
  /** Undo what the fixture did outside the harness's folders (watched mode lets a write land), once judged. */
  readonly cleanup?: (outcome: HostileOutcome) => void;
  /** A control: it must pass the probe (no violation at all), then meet `expect`. */
  readonly control?: boolean;
  /** What is wrong with the verdict; empty = caught exactly as designed (or, a control, passed as designed). */
  readonly expect: (outcome: HostileOutcome) => string[];
}

export interface Probe {
  readonly id: string;
  /** Where the rule is specified (probes.md). */
  readonly section: string;
  /** The rule, in one line. */
  readonly rule: string;
  readonly setup: (subject: Subject) => readonly ProbeCase[];
  readonly judge: (input: JudgeInput) => string[];
  readonly hostile: readonly HostileCase[];
}

// ---------------------------------------------------------------- expectation helpers

const show = (v: unknown) => JSON.stringify(v);

/** `actual` deep-equals `expected` (as JSON). */
export function exactly(actual: readonly string[], expected: readonly string[]): string[] {
  return show(actual) === show(expected) ? [] : [`expected exactly ${show(expected)}, got ${show(actual)}`];
}

/** Exactly `n` violations match `pattern`. */
export function matching(violations: readonly string[], pattern: RegExp, n: number): string[] {
  const k = violations.filter((v) => pattern.test(v)).length;
  return k === n ? [] : [`expected ${n} violation(s) matching ${pattern}, got ${k}: ${show(violations)}`];
}

/** Every violation matches `pattern`, and there is at least one. */
export function allMatch(violations: readonly string[], pattern: RegExp): string[] {
  if (violations.length === 0) return [`expected violations matching ${pattern}, got none`];
  const off = violations.filter((v) => !pattern.test(v));
  return off.length === 0 ? [] : [`expected every violation to match ${pattern}; these do not: ${show(off)}`];
}

export function includes(violations: readonly string[], expected: string): string[] {
  return violations.includes(expected) ? [] : [`expected the violation ${show(expected)}, got ${show(violations)}`];
}

export function holds(condition: boolean, what: string): string[] {
  return condition ? [] : [what];
}

/** Served requests across runs. */
export const bodiesOf = (runs: readonly WireRun[]) => runs.reduce((n, r) => n + r.bodies.length, 0);
