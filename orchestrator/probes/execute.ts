/**
 * Running the registry: a probe case over a subject (its setup runs, then its judge, then the
 * known findings), and a hostile case over its fixture. One implementation for `arena probe` and
 * the probe suites, so what the command reports is what the tests assert.
 */
import type { AdapterRecord } from "../report/record.ts";
import { WITHOUT_RESUME } from "./declarations.ts";
import { unsupportedViolations } from "./judges/pause.ts";
import { judge, knownOf } from "./known.ts";
import { Limiter } from "./limiter.ts";
import { planOf } from "./plans.ts";
import type { RunContext } from "./plan.ts";
import { fixtureSubject } from "./registry.ts";
import type { SetupName, Subject } from "./setups.ts";
import type { CaseOutcome, HostileCase, Probe, ProbeCase } from "./types.ts";
import type { WireRun } from "./wire-types.ts";

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
  /** n/a exactly as a declaration says (no resume API), which was checked: nothing was skipped. */
  readonly asDeclared?: true;
}

type Verdict = Pick<CaseResult, "status" | "violations" | "unexpected" | "stale" | "reason" | "asDeclared">;

const failed = (violations: string[]): Verdict => ({ status: "FAIL", violations, unexpected: violations, stale: [] });
const notJudged = (reason: string): Verdict => ({ status: "n/a", violations: [], unexpected: [], stale: [], reason });

/**
 * A case whose primary run did not give the judge anything to judge, or a declared capability gap
 * the judge has no say in: not installed (fails only a required subject), and no resume on a pause
 * arena (n/a — but for a catalogued adapter exactly as declarations.ts declares it).
 */
function beforeJudging(probeCase: ProbeCase, subject: Subject, adapterRecord: AdapterRecord): Verdict | undefined {
  const declared = subject.catalogued === true && probeCase.pauses === true && WITHOUT_RESUME.has(subject.name);
  if (declared && (adapterRecord.available || adapterRecord.unavailable_kind === "unsupported")) {
    const v = unsupportedViolations(adapterRecord);
    if (v.length > 0) return failed(v.map((x) => `declared without resume (WITHOUT_RESUME), but ${x}`));
    return { ...notJudged(`${subject.name} has no resume API (declared): ${adapterRecord.reason}`), asDeclared: true };
  }
  if (adapterRecord.available) return undefined;
  const why = `${subject.name} could not be built (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`;
  if (adapterRecord.unavailable_kind === "unsupported") {
    if (subject.catalogued && probeCase.pauses) return failed([`${why} — and WITHOUT_RESUME does not declare it`]);
    return notJudged(why);
  }
  return subject.required ? failed([why]) : notJudged(why);
}

export async function judgeCase(probe: Probe, probeCase: ProbeCase, subject: Subject, env: ProbeEnv): Promise<CaseResult> {
  const runs = await Promise.all(probeCase.setups.map((s) => env.runSetup(s, subject)));
  const base = { probe: probe.id, case: probeCase.id, runs };
  const early = runs[0] ? beforeJudging(probeCase, subject, runs[0].record) : undefined;
  if (early) return { ...base, ...early };
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

/** The cases a hostile case runs: its own, or the probe's for the fixture (filtered). */
export function hostileCases(probe: Probe, hostile: HostileCase): readonly ProbeCase[] {
  return hostile.own ?? probe.setup(fixtureSubject(hostile)).filter((c) => !hostile.cases || hostile.cases.includes(c.id));
}

/** Run a fixture through its probe: no case is skipped, an unbuilt fixture is judged like any other. */
export async function judgeHostile(probe: Probe, hostile: HostileCase, env: ProbeEnv): Promise<HostileVerdict> {
  const subject = fixtureSubject(hostile);
  const cases = hostileCases(probe, hostile);
  const outcomes: CaseOutcome[] = await Promise.all(
    cases.map(async (c) => {
      const runs = await Promise.all(c.setups.map((s) => env.runSetup(s, subject)));
      return { id: c.id, runs, violations: probe.judge({ probeCase: c.id, runs, subject, arenaTools: env.arenaTools }) };
    }),
  );
  const violations = outcomes.flatMap((o) => o.violations);
  const outcome = { cases: outcomes, violations, runs: outcomes.flatMap((o) => o.runs) };
  hostile.cleanup?.(outcome);
  const control = hostile.control === true;
  const problems = [
    ...(cases.length === 0 ? ["the probe has no case for this fixture"] : []),
    ...(control && violations.length > 0 ? [`a control must pass the probe: ${JSON.stringify(violations)}`] : []),
    ...(!control && violations.length === 0 ? ["not caught: the probe found no violation"] : []),
    ...hostile.expect(outcome),
  ];
  return { fixture: hostile.fixture, probe: probe.id, control, ok: problems.length === 0, problems, violations };
}

/**
 * Orchestrator runs a runner has in flight (`ARENA_PROBE_CONCURRENCY`). Most of a probe run is
 * waiting — on worker start-up, on a restart at the pause, on workers and gateways settling — so
 * a few at once overlap that; many more only make every worker miss its start-up deadline.
 */
export function runsInFlight(env: NodeJS.ProcessEnv = process.env): number {
  return Math.max(1, Number(env.ARENA_PROBE_CONCURRENCY) || 4);
}

/**
 * A setup runner that shares each run between every probe that asks for it (setups of one group
 * share one run), with at most `limit` orchestrator runs in flight.
 */
export function sharedRunner(limit: number, onRun?: (setup: SetupName, subject: Subject, run: WireRun) => void): RunSetup {
  const memo = new Map<string, Promise<Readonly<Record<string, WireRun>>>>();
  const limiter = new Limiter(limit);
  const runSetup: RunSetup = async (setup, subject) => {
    const plan = planOf(setup);
    const key = JSON.stringify([plan.group, subject.name, subject.module]);
    let group = memo.get(key);
    if (!group) {
      const ctx: RunContext = { setup: (name) => runSetup(name, subject), shared: (t) => limiter.shared(t), alone: (t) => limiter.alone(t) };
      group = plan.run(subject, ctx);
      if (onRun) void group.then((runs) => Object.entries(runs).forEach(([name, run]) => onRun(name as SetupName, subject, run)), () => {});
      memo.set(key, group);
    }
    const run = (await group)[setup];
    if (!run) throw new Error(`setup ${setup} is not among the runs of its group ${plan.group}`);
    return run;
  };
  return runSetup;
}
