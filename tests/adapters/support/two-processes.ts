/**
 * The durable restart with nothing shared but files: leg 1 and leg 2 of one durable_state item,
 * each in a fresh OS process (support/leg-child.ts) with its own empty cwd, HOME and TMPDIR, so
 * a suite can show that only a JSON file and the checkpoint directory crossed, and that nothing
 * was written anywhere else.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { OUR_ARENAS, OUR_CORPUS } from "../../support/run.ts";

const CHILD = fileURLToPath(new URL("./leg-child.ts", import.meta.url));

/** What one leg's process printed (see leg-child.ts). */
export interface LegOutput {
  readonly result: any;
  readonly served: { prompt_tokens: number; completion_tokens: number; llm_calls: number };
  readonly stateBytes: number;
  /** The checkpoint directory's files and their sizes after the leg. */
  readonly files: Record<string, number>;
  readonly port: string;
  readonly connections: string[];
  readonly lookups: string[];
}

export function legsInTwoProcesses(adapter: string, timeoutMs: number) {
  const root = mkdtempSync(path.join(os.tmpdir(), `${adapter}-restart-`));
  const [ckpt, cwd, home, tmp] = ["ckpt", "cwd", "home", "tmp"].map((d) => path.join(root, d)) as [string, string, string, string];
  for (const d of [ckpt, cwd, home, tmp]) mkdirSync(d);
  const args = [path.join(OUR_ARENAS, "durable_state"), OUR_CORPUS, "dur-01", ckpt, path.join(root, "state.json")];
  return {
    leg(mode: "run" | "resume"): LegOutput {
      const out = execFileSync(process.execPath, [CHILD, adapter, mode, ...args], {
        cwd,
        env: { ...process.env, HOME: home, TMPDIR: tmp },
        encoding: "utf8",
        timeout: timeoutMs,
      });
      return JSON.parse(out.trimEnd().split("\n").at(-1)!);
    },
    /** Neither leg wrote to its working directory, its HOME or its TMPDIR. */
    expectNothingWrittenElsewhere(): void {
      for (const d of [cwd, home, tmp]) expect(readdirSync(d), d).toEqual([]);
    },
  };
}
