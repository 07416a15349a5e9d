/**
 * The shape of a setup's plan: how its runs are obtained (see plans.ts), and the one kind most
 * setups are, a single orchestrator run of their own.
 */
import type { SetupName, Subject } from "./setups.ts";
import { wireRunMany, type ProbeRunManyOptions, type ProbeRunOptions, type SetupRunOptions, type WireRun } from "./wire.ts";

export type { SetupRunOptions };
export type SetupRunManyOptions = Omit<ProbeRunManyOptions, "adapter" | "workerEnv">;

export interface RunContext {
  /** Another setup's run for the same subject, shared as any probe would get it. */
  readonly setup: (name: SetupName) => Promise<WireRun>;
  /** Run `task` (orchestrator runs) in one of the runner's slots. */
  readonly shared: <T>(task: () => Promise<T>) => Promise<T>;
  /** Run `task` with nothing else of this runner in flight. */
  readonly alone: <T>(task: () => Promise<T>) => Promise<T>;
}

export interface SetupPlan {
  /** The memo key of the run(s): setups with the same group share them. */
  readonly group: string;
  /**
   * The orchestrator runs `run` makes, as data, in order (each exactly what it passes to
   * wireRunMany): tests/witness/indistinguishable.test.ts replays them as bench runs.
   */
  readonly runs: readonly SetupRunManyOptions[];
  /** Every setup the group's runs answer, by name. */
  readonly run: (subject: Subject, ctx: RunContext) => Promise<Readonly<Record<string, WireRun>>>;
}

export const adapterOf = (subject: Subject) => ({ name: subject.name, module: subject.module });

/** One arena's run options as a (one-lane) orchestrator run's. */
export function toMany(options: SetupRunOptions): SetupRunManyOptions {
  const { arena, items, ...rest } = options;
  return { ...rest, arenas: [{ arena, ...(items ? { items } : {}) }] };
}

/** A setup that is one orchestrator run of its own (`alone`: with nothing else in flight). */
export function single(name: SetupName, options: SetupRunOptions, alone = false): SetupPlan {
  const runs = [toMany(options)];
  return {
    group: name,
    runs,
    run: async (subject, ctx) => {
      const [run] = await (alone ? ctx.alone : ctx.shared)(() => wireRunMany({ adapter: adapterOf(subject), ...runs[0]! }));
      return { [name]: run! };
    },
  };
}
