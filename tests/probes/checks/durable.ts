/**
 * Durable across a real restart (probes.md §13), on the harness path: at the pause the worker is
 * SIGKILLed and the resume runs in a fresh process that never saw the item, with nothing between
 * them but the JSON resume_state and the checkpoint directory. Leg 2 must succeed, carry on from
 * the pause (its own tools only: resumed, not restarted) and reach the answer.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Arena } from "../../../orchestrator/arena/schemas.ts";
import type { ItemRecord } from "../../../orchestrator/report/record.ts";
import type { ProbeRun } from "../../../orchestrator/probes/wire.ts";

export interface DurableExpectation {
  readonly itemId: string;
  /** Text the final answer must contain (e.g. "498"). */
  readonly answer: string;
  /** Tool names per leg, e.g. [["search", "search"], ["calculator"]]. */
  readonly legTools: readonly (readonly string[])[];
}

/** Expectations read from a durable arena's own checks: the numeric answer, and the search/calc legs. */
export function expectationsFor(arena: Arena): DurableExpectation[] {
  return arena.items.map((item) => {
    const numeric = item.checks.find((c) => c.get("type") === "numeric_equals");
    const value = numeric?.get("value");
    return { itemId: item.id, answer: String(value), legTools: [["search", "search"], ["calculator"]] };
  });
}

const eq = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const show = (xs: readonly string[]) => JSON.stringify(xs);

export function durableItemViolations(item: ItemRecord | undefined, want: DurableExpectation): string[] {
  const id = want.itemId;
  if (!item) return [`${id}: not run`];
  const out: string[] = [];
  const legs = item.legs ?? [];
  if (legs.length !== want.legTools.length) {
    out.push(`${id}: ${legs.length || 1} leg(s) completed, expected ${want.legTools.length}${item.error ? ` — leg 2 failed in the fresh process: ${item.error.split("\n")[0]!.slice(0, 160)}` : ""}`);
  } else if (item.error) {
    out.push(`${id}: error after the restart: ${item.error.split("\n")[0]!.slice(0, 160)}`);
  }
  if (legs[0] && !legs[0].suspended) out.push(`${id}: leg 1 did not suspend`);
  want.legTools.forEach((tools, i) => {
    const leg = legs[i];
    if (leg && !eq(leg.tool_calls, tools)) {
      out.push(`${id}: leg ${i + 1} tools ${show(leg.tool_calls)}, expected ${show(tools)}${i > 0 ? " (resumed, not restarted)" : ""}`);
    }
  });
  if (!item.error && !item.output_text.includes(want.answer)) {
    out.push(`${id}: answer ${JSON.stringify(item.output_text.slice(0, 120))} does not contain ${want.answer}`);
  }
  return out;
}

export function durableViolations(run: Pick<ProbeRun, "framework" | "gateway">, wants: readonly DurableExpectation[]): string[] {
  const fw = run.framework;
  if (!fw.available) return [`unavailable (${fw.unavailable_kind}): ${fw.reason}`];
  const out = wants.flatMap((w) => durableItemViolations(fw.items.find((i) => i.item_id === w.itemId), w));
  // On the wire: a one-item run whose legs all reached the gateway came from as many worker tags as legs.
  if (wants.length === 1 && out.length === 0) {
    const tags = new Set(run.gateway.requests.map((r) => r.tag));
    if (tags.size < wants[0]!.legTools.length) out.push(`every request came from ${tags.size} worker(s): the resume did not run in a fresh process`);
  }
  return out;
}

export interface FileEntry {
  readonly path: string;
  readonly bytes: number;
}

/** Every file under `dir`, relative paths, sorted. */
export function listFiles(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(d, name);
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(full);
      else out.push({ path: path.relative(dir, full), bytes: st.size });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** The harness-owned checkpoint directories of a probe run (`<root>/checkpoints/<run>/<adapter>/<arena>`). */
export function checkpointFiles(run: Pick<ProbeRun, "root">): FileEntry[] {
  return listFiles(path.join(run.root, "checkpoints")).map((f) => ({ ...f, path: f.path.split(path.sep).slice(3).join("/") }));
}

/** One row of the (non-gated) durable finding table. */
export interface DurableFinding {
  readonly adapter: string;
  readonly arena: string;
  readonly items: number;
  readonly passed: number;
  /** Leg 1's JSON resume_state size in bytes (min–max over items). */
  readonly state_bytes: readonly [number, number] | null;
  readonly checkpoint_files: readonly FileEntry[];
  readonly mechanism: "stateless (state carries the run)" | "checkpointer (files in checkpoint_dir)";
  readonly leg2: string;
  readonly violations: readonly string[];
}

export function durableFinding(adapter: string, arenaLabel: string, run: ProbeRun, violations: readonly string[]): DurableFinding {
  const items = run.framework.items;
  const sizes = items.map((i) => i.legs?.[0]?.resume_state_bytes).filter((x): x is number => typeof x === "number");
  const files = checkpointFiles(run);
  const failed = items.filter((i) => i.error);
  return {
    adapter,
    arena: arenaLabel,
    items: items.length,
    passed: items.filter((i) => i.passed).length,
    state_bytes: sizes.length ? [Math.min(...sizes), Math.max(...sizes)] : null,
    checkpoint_files: files,
    mechanism: files.length > 0 ? "checkpointer (files in checkpoint_dir)" : "stateless (state carries the run)",
    leg2: failed.length ? `failed: ${failed[0]!.error!.split("\n")[0]!.slice(0, 120)}` : "ok",
    violations,
  };
}
