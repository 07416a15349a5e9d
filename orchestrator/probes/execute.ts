/**
 * Running the registry: a probe case over a subject (its setup runs, then its judge, then the
 * known findings), and a hostile case over its fixture. One implementation for `arena probe` and
 * the probe suites, so what the command reports is what the tests assert.
 */
import { judge, knownOf } from "./known.ts";
import { fixtureSubject } from "./registry.ts";
import { setupOptions, type SetupName, type Subject } from "./setups.ts";
import type { CaseOutcome, HostileCase, Probe, ProbeCase } from "./types.ts";
import { wireRun, type WireRun } from "./wire.ts";

/** How a setup run is obtained: each caller decides how runs are shared and how many run at once. */
export type RunSetup = (setup: SetupName, subject: Subject) => Promise<WireRun>;

export interface ProbeEnv {
  readonly runSetup: RunSetup;
  /** Every tool any arena declares (see allArenaTools). */
  readonly arenaTools: readonly string[];
}

export type Status = "pass" | "FAIL" | "known" | "n/a";

export interface CaseResult {
  readonly probe: string;
  readonly case: string;
  readonly status: Status;
  readonly runs: readonly WireRun[];
  readonly violations: readonly string[];
  /** Violations no known finding accounts for (an unbuildable required subject: why it did not build). */
  readonly unexpected: readonly string[];
  /** Known findings that no longer occur (the framework changed: retire the entry). */
  readonly stale: readonly string[];
  /** Why the case was not judged (n/a). */
  readonly reason?: string;
}

export async function judgeCase(probe: Probe, probeCase: ProbeCase, subject: Subject, env: ProbeEnv): Promise<CaseResult> {
  const runs = await Promise.all(probeCase.setups.map((s) => env.runSetup(s, subject)));
  const base = { probe: probe.id, case: probeCase.id, runs };
  const fw = runs[0]!.framework;
  if (!fw.available) {
    const why = `${subject.name} could not be built (${fw.unavailable_kind}): ${fw.reason}`;
    // "unsupported" (no resume on a pause arena) is a declared capability gap, never a failure.
    if (subject.required && fw.unavailable_kind !== "unsupported") {
      return { ...base, status: "FAIL", violations: [why], unexpected: [why], stale: [] };
    }
    return { ...base, status: "n/a", violations: [], unexpected: [], stale: [], reason: why };
  }
  const violations = probe.judge({ probeCase: probeCase.id, runs, subject, arenaTools: env.arenaTools });
  const { unexpected, stale } = judge(violations, subject.catalogued ? knownOf(probe.id, subject.name, probeCase.id) : []);
  const status: Status = unexpected.length + stale.length > 0 ? "FAIL" : violations.length > 0 ? "known" : "pass";
  return { ...base, status, violations, unexpected, stale };
}

/** Every case of `probe` for `subject`, in case order. */
export function judgeProbe(probe: Probe, subject: Subject, env: ProbeEnv): Promise<CaseResult[]> {
  return Promise.all(probe.setup(subject).map((c) => judgeCase(probe, c, subject, env)));
}

/** One cell of the rule × adapter table: the worst case wins; n/a only when no case was judged. */
export function cellStatus(results: readonly CaseResult[]): Status {
  for (const s of ["FAIL", "known", "pass"] as const) if (results.some((r) => r.status === s)) return s;
  return "n/a";
}

export interface HostileVerdict {
  readonly fixture: string;
  readonly probe: string;
  readonly control: boolean;
  /** Caught exactly as designed (a control: passed as designed). */
  readonly ok: boolean;
  /** What was wrong with the verdict, when not ok. */
  readonly problems: readonly string[];
  readonly violations: readonly string[];
}

/** Run a fixture through its probe: no case is skipped, an unbuilt fixture is judged like any other. */
export async function judgeHostile(probe: Probe, hostile: HostileCase, env: ProbeEnv): Promise<HostileVerdict> {
  const subject = fixtureSubject(hostile);
  const cases = probe.setup(subject).filter((c) => !hostile.cases || hostile.cases.includes(c.id));
  const outcomes: CaseOutcome[] = await Promise.all(
    cases.map(async (c) => {
      const runs = await Promise.all(c.setups.map((s) => env.runSetup(s, subject)));
      return { id: c.id, runs, violations: probe.judge({ probeCase: c.id, runs, subject, arenaTools: env.arenaTools }) };
    }),
  );
  const violations = outcomes.flatMap((o) => o.violations);
  const control = hostile.control === true;
  const problems = [
    ...(cases.length === 0 ? ["the probe has no case for this fixture"] : []),
    ...(control && violations.length > 0 ? [`a control must pass the probe: ${JSON.stringify(violations)}`] : []),
    ...(!control && violations.length === 0 ? ["not caught: the probe found no violation"] : []),
    ...hostile.expect({ cases: outcomes, violations, runs: outcomes.flatMap((o) => o.runs) }),
  ];
  return { fixture: hostile.fixture, probe: probe.id, control, ok: problems.length === 0, problems, violations };
}

/**
 * A setup runner that shares each run between every probe that asks for it, with at most
 * `limit` orchestrator runs in flight (each spawns worker processes: more than a couple at once
 * on a small machine only makes every worker miss its start-up deadline).
 */
export function sharedRunner(limit: number, onRun?: (setup: SetupName, subject: Subject, run: WireRun) => void): RunSetup {
  const memo = new Map<string, Promise<WireRun>>();
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const limited = async <T>(task: () => Promise<T>): Promise<T> => {
    if (inFlight >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else inFlight += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else inFlight -= 1;
    }
  };
  return (setup, subject) => {
    const key = JSON.stringify([setup, subject.name, subject.module]);
    let run = memo.get(key);
    if (!run) {
      run = limited(() => wireRun({ adapter: { name: subject.name, module: subject.module }, ...setupOptions(setup) }));
      if (onRun) void run.then((r) => onRun(setup, subject, r), () => {});
      memo.set(key, run);
    }
    return run;
  };
}
