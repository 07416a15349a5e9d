/**
 * The durable probe's finding table (not gated, runs/findings/durable.json): how big each
 * adapter's resume_state is, and what it leaves in its harness-owned checkpoint folders.
 */
import type { FileEntry, WireRun } from "../../../orchestrator/probes/wire.ts";

export interface DurableFinding {
  readonly adapter: string;
  readonly case: string;
  readonly items: number;
  readonly passed: number;
  /** Leg 1's JSON resume_state size in bytes (min–max over items). */
  readonly state_bytes: readonly [number, number] | null;
  /** Relative to the lane's folder: `<item>.r<repeat>/<file>`. */
  readonly checkpoint_files: readonly FileEntry[];
  readonly mechanism: "stateless (state carries the run)" | "checkpointer (files in checkpoint_dir)";
  readonly leg2: string;
  readonly violations: readonly string[];
}

export function durableFinding(adapter: string, probeCase: string, run: WireRun, violations: readonly string[]): DurableFinding {
  const items = run.record.items;
  const sizes = items.map((i) => i.legs?.[0]?.resume_state_bytes).filter((x): x is number => typeof x === "number");
  const failed = items.filter((i) => i.error);
  return {
    adapter,
    case: probeCase,
    items: items.length,
    passed: items.filter((i) => i.passed).length,
    state_bytes: sizes.length ? [Math.min(...sizes), Math.max(...sizes)] : null,
    checkpoint_files: run.checkpointFiles,
    mechanism: run.checkpointFiles.length > 0 ? "checkpointer (files in checkpoint_dir)" : "stateless (state carries the run)",
    leg2: failed.length ? `failed: ${failed[0]!.error!.split("\n")[0]!.slice(0, 120)}` : "ok",
    violations,
  };
}
