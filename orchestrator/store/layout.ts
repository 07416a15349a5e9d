/**
 * Where everything of one run lives. `runs/<run-id>/` holds the run's manifest, journal, records,
 * scorecards, summary and logs; its checkpoints live under the harness-owned top-level
 * `checkpoints/<run-id>/`. Every path is built with `inside()`, so an id from data can never
 * point outside its root.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { inside } from "../files/safe-path.ts";
import { newRunId } from "./run-id.ts";

/** The three roots the harness writes to (the project layout: all beside each other by default). */
export interface OutputRoots {
  readonly runsDir: string;
  readonly checkpointsDir: string;
  /** Live scorecards only. */
  readonly resultsDir: string;
}

export function outputRoots(base: string): OutputRoots {
  return { runsDir: path.join(base, "runs"), checkpointsDir: path.join(base, "checkpoints"), resultsDir: path.join(base, "results") };
}

export class RunLayout {
  readonly roots: OutputRoots;
  readonly runId: string;
  readonly dir: string;

  constructor(roots: OutputRoots, runId: string) {
    this.roots = roots;
    this.runId = runId;
    this.dir = inside(roots.runsDir, runId);
  }

  get manifest(): string {
    return inside(this.dir, "run.json");
  }
  get journal(): string {
    return inside(this.dir, "journal.jsonl");
  }
  get logsDir(): string {
    return inside(this.dir, "logs");
  }
  get gatewayDir(): string {
    return inside(this.dir, "gateway");
  }
  get summary(): string {
    return inside(this.dir, "summary.md");
  }
  record(arena: string): string {
    return inside(this.dir, "records", `${arena}.json`);
  }
  get scorecardsDir(): string {
    return inside(this.dir, "scorecards");
  }
  scorecardDir(arena: string): string {
    return inside(this.dir, "scorecards", arena);
  }
  /** This run's checkpoints: created by it, so the only checkpoint tree it may delete. */
  get checkpointRoot(): string {
    return inside(this.roots.checkpointsDir, this.runId);
  }
  /** One session (the first attempt, then each resume) gets fresh checkpoint folders. */
  checkpointDir(session: number, adapter: string, arena: string): string {
    return inside(this.checkpointRoot, `s${session}`, adapter, arena);
  }
  /**
   * The folders one session hands runArenas (its `dirs`): a resume's workers are new processes and
   * must not append to the first session's logs, and get fresh checkpoint folders. One place, so
   * every caller — the CLI, the probes, the tests' runs — lays a session out the same way (a new
   * run's first session is `s0`).
   */
  sessionDirs(session: number): { readonly logDir: string; readonly checkpointRoot: string; readonly gatewayDir: string; readonly outputRoots: readonly string[] } {
    return {
      logDir: inside(this.logsDir, `s${session}`),
      checkpointRoot: inside(this.checkpointRoot, `s${session}`),
      gatewayDir: this.gatewayDir,
      // What a sealed worker must not see of any run, this one's included (supervisor/sandbox/view.ts).
      outputRoots: [this.roots.runsDir, this.roots.checkpointsDir, this.roots.resultsDir],
    };
  }
}

/** Ids tried before giving up: each is a millisecond stamp plus 24 random bits, so the second try already fails only on a bug. */
const CLAIM_ATTEMPTS = 8;

/**
 * A new run's folder, created exclusively: `runs/` may be made on the way, the run's own folder
 * never with `recursive` — `mkdir` of an existing name fails with EEXIST, and the run takes a new
 * id instead of sharing another run's folder (two processes that drew the same id both "created"
 * it before). Throws the fs error of anything else (an output root that cannot be written).
 *
 * @param mint - makes a candidate id; the default is {@link newRunId} at `now`.
 */
export function claimRunFolder(roots: OutputRoots, now: Date, mint: (now: Date) => string = newRunId): RunLayout {
  mkdirSync(roots.runsDir, { recursive: true });
  for (let attempt = 1; ; attempt++) {
    const layout = new RunLayout(roots, mint(now));
    try {
      mkdirSync(layout.dir);
      return layout;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt >= CLAIM_ATTEMPTS) throw err;
    }
  }
}
