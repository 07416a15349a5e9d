/**
 * The run, as the CLI, the probes and the scripts see it: one function and its types. The plan,
 * lanes, items, legs and the witness hand-off behind it are private to this folder.
 */
export { runArenas } from "./session.ts";
export type { AdapterEntry, BuiltDeclarations, ItemTiming, LaneWitnessTiming, PriorCells, ProgressEvent, RunOptions, RunPlanEvent, RunOutcome } from "./options.ts";
export { isProviderFaultError } from "./provider-faults.ts";
export { MAX_SHARDS, parseShard, selectShard, SHARD_COST, ShardError, type ShardSelection, type ShardSpec } from "./shard.ts";
export { planRun, laneCells } from "./plan.ts";
