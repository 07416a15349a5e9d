/**
 * Whether shard runs belong together (`arena merge`): the parts of one plan, each finished, each
 * part exactly once. Every refusal names the run and what differs, so the user can tell a stale
 * artifact from a shard that never ran.
 */
import type { Manifest } from "./manifest.ts";

/** One shard run as `arena merge` was given it. */
export interface ShardRun {
  /** How the user named it (a run id or a folder), for the messages. */
  readonly ref: string;
  readonly runId: string;
  readonly manifest: Manifest;
}

/** Shard runs that cannot be merged; `problems` has one line per reason. */
export class MergeRefusedError extends Error {
  override readonly name = "MergeRefusedError";
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`cannot merge: ${problems.join("; ")}`);
    this.problems = problems;
  }
}

const short = (hash: string) => hash.slice(0, 12);

/** What must be the same in every shard of one plan, as [what it is called, its value]. */
function identity(m: Manifest): [string, string][] {
  return [
    ["command", m.command],
    ["mode", m.mode],
    ["repeat", String(m.repeat)],
    ["frameworks", m.frameworks.join(",")],
    ["item filter", (m.item_filter ?? []).join(",") || "(none)"],
    ["arenas", m.arenas.map((a) => a.id).join(",")],
    ...m.arenas.map((a): [string, string] => [`arena ${a.id} sha256`, short(a.sha256)]),
    ["corpus sha256", short(m.corpus.sha256)],
    ["config", short(m.config_hash)],
    // How the items were isolated: a merged run must say one thing about it.
    ["items per worker", String(m.items_per_worker ?? 1)],
    ["plan", short(m.shard?.plan_sha256 ?? "")],
    ["shard count", String(m.shard?.count ?? "")],
  ];
}

/**
 * The shards in shard order, or a {@link MergeRefusedError} naming every reason they cannot be
 * merged: a run that is not a shard, a re-score, a shard not finished, a difference from the
 * first shard's plan, a shard given twice, a shard missing.
 */
export function checkShards<T extends ShardRun>(runs: readonly T[]): T[] {
  const problems: string[] = [];
  if (runs.length === 0) throw new MergeRefusedError(["no runs given (arena merge RUN…)"]);
  for (const run of runs) {
    if (run.manifest.command === "score") problems.push(`${run.ref} is a re-score, not a shard run`);
    else if (!run.manifest.shard) problems.push(`${run.ref} is not a shard (it ran without --shard)`);
    if (run.manifest.merged_from) problems.push(`${run.ref} is itself a merged run`);
    const last = run.manifest.sessions.at(-1);
    if (last?.status !== "complete") {
      const where = run.manifest.shard ? ` (shard ${run.manifest.shard.index}/${run.manifest.shard.count})` : "";
      problems.push(`${run.ref}${where} is ${last?.status ?? "empty"}, not complete: finish it first (arena ${run.manifest.command} --resume ${run.runId})`);
    }
  }
  if (problems.length > 0) throw new MergeRefusedError(problems);

  const [first, ...rest] = runs as [T, ...T[]];
  const expected = identity(first.manifest);
  for (const run of rest) {
    const seen = identity(run.manifest);
    for (let i = 0; i < Math.max(expected.length, seen.length); i++) {
      const [name, want] = expected[i] ?? seen[i]!;
      const got = seen[i]?.[0] === name ? seen[i]![1] : "(absent)";
      if (got !== want) problems.push(`${run.ref} does not belong with ${first.ref}: ${name} is ${got}, not ${want}`);
    }
  }
  if (problems.length > 0) throw new MergeRefusedError(problems);

  const count = first.manifest.shard!.count;
  const byIndex = new Map<number, T[]>();
  for (const run of runs) byIndex.set(run.manifest.shard!.index, [...(byIndex.get(run.manifest.shard!.index) ?? []), run]);
  for (const [index, holders] of [...byIndex].sort(([a], [b]) => a - b)) {
    if (holders.length > 1) problems.push(`shard ${index}/${count} given ${holders.length} times (${holders.map((h) => h.ref).join(", ")})`);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) problems.push(`shard${missing.length > 1 ? "s" : ""} ${missing.map((i) => `${i}/${count}`).join(", ")} missing`);
  if (problems.length > 0) throw new MergeRefusedError(problems);
  return [...runs].sort((a, b) => a.manifest.shard!.index - b.manifest.shard!.index);
}
