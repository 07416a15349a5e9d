/**
 * `--shard I/N` on `arena run|bench`: which of the plan's cells this invocation runs. A new run
 * computes its part from the plan and records it in the manifest; a resume takes the recorded
 * part, so a resumed shard finishes the same cells it started with.
 */
import { planRun, selectShard, parseShard, ShardError, type ShardSpec } from "../run/index.ts";
import { sha256, type Manifest } from "../store/manifest.ts";
import { UsageError, type FlagValue } from "./command.ts";
import type { RunRequest } from "./run-plan.ts";

/** The plan's identity: every cell's name, in plan order, hashed (the same on every machine). */
export function planDigest(request: Pick<RunRequest, "arenas" | "adapters" | "itemFilter" | "config">): string {
  const plan = planRun(request.arenas, request.adapters, request.itemFilter);
  const names: string[] = [];
  for (const { arena, items, adapters } of plan) {
    for (const adapter of adapters) {
      for (let r = 0; r < request.config.repeat; r++) for (const item of items) names.push(`${arena.id}/${adapter.name}/${item.id}#${r}`);
    }
  }
  return sha256(...names);
}

/**
 * The request with its shard applied: the cells to keep and the manifest's `shard` field. A run
 * without `--shard` (and a resume of one that had none) comes back unchanged.
 *
 * @param resuming - a resume runs the recorded shard; `--shard` beside it is refused.
 */
export function applyShard(request: RunRequest, flags: Readonly<Record<string, FlagValue>>, resuming: boolean): RunRequest {
  const given = flags.shard;
  if (resuming && given !== undefined) throw new UsageError("--shard cannot be combined with a resume: it runs the recorded shard");
  let spec: ShardSpec | undefined = resuming ? request.manifest.shard : undefined;
  if (!resuming && given !== undefined) {
    if (typeof given !== "string") throw new UsageError("--shard needs a value I/N (e.g. 2/4)");
    try {
      spec = parseShard(given);
    } catch (err) {
      if (err instanceof ShardError) throw new UsageError(err.message);
      throw err;
    }
  }
  if (spec === undefined) return request;
  const plan = planRun(request.arenas, request.adapters, request.itemFilter);
  const selection = selectShard(plan, request.config.repeat, spec);
  const shard: NonNullable<Manifest["shard"]> = {
    index: spec.index,
    count: spec.count,
    plan_sha256: planDigest(request),
    cells: selection.cells,
    total_cells: selection.totalCells,
    cost: selection.cost,
    total_cost: selection.totalCost,
  };
  return { ...request, manifest: { ...request.manifest, shard }, keepCell: selection.keep };
}

/** One line for stderr before the run: what this shard takes of the whole. */
export function shardLine(request: RunRequest): string | undefined {
  const shard = request.manifest.shard;
  if (!shard) return undefined;
  return `shard ${shard.index}/${shard.count}: ${shard.cells} of ${shard.total_cells} cell(s), expected cost ${shard.cost} of ${shard.total_cost}`;
}
