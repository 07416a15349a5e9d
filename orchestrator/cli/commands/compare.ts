/**
 * `arena compare RUN_A RUN_B`: the two runs item by item, per arena × framework — fixed, broke,
 * unchanged (history/item-diff.ts), the paired test over items and the deltas — and exit 1 when a
 * lane regresses by the rule in history/compare.ts (for CI: B is the candidate, A the baseline).
 * Items the provider failed in either run are named on their own line and never regress.
 */
import { readEnvironment } from "../../config/arena-config.ts";
import { MAX_COUNT, parseCount, parseDecimal } from "../../config/values.ts";
import { compareRuns, type CompareRule } from "../../history/compare.ts";
import { loadRun, resolveRun, type StoredRun } from "../../history/runs.ts";
import { UsageError, type CommandContext } from "../command.ts";
import { COMPARE_FORMATS, compareMarkdown, compareText, type CompareFormat } from "../compare-output.ts";
import { EXIT_DIFFERENCE, EXIT_OK } from "../exit-codes.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";

function rule(flags: CommandContext["flags"]): CompareRule {
  const threshold = flags.threshold === undefined ? 0 : parseCount(String(flags.threshold), "--threshold", { min: 0, max: MAX_COUNT });
  if (flags.alpha === undefined) return { threshold };
  return { threshold, alpha: parseDecimal(String(flags.alpha), "--alpha", { min: 0, max: 1, exclusiveMin: true }) };
}

function format(flags: CommandContext["flags"]): CompareFormat {
  const value = flags.format === undefined ? "text" : String(flags.format);
  if (!(COMPARE_FORMATS as readonly string[]).includes(value)) throw new UsageError(`--format: '${value}' is not one of ${COMPARE_FORMATS.join(", ")}`);
  return value as CompareFormat;
}

/** What makes the two runs not like for like: said, not refused (comparing across a change is the point). */
function caveats(a: StoredRun, b: StoredRun): string[] {
  const out: string[] = [];
  if (a.manifest.mode !== b.manifest.mode) out.push(`A is a ${a.manifest.mode} run, B a ${b.manifest.mode} run`);
  for (const arena of a.manifest.arenas) {
    const other = b.manifest.arenas.find((x) => x.id === arena.id);
    if (other && other.sha256 !== arena.sha256) out.push(`arena ${arena.id}: its files differ between the runs`);
  }
  for (const [run, name] of [[a, "A"], [b, "B"]] as const) {
    if (run.records.some((r) => r.status !== "complete")) out.push(`${name} (${run.layout.runId}) is not complete`);
  }
  return out;
}

export function run(ctx: CommandContext): number {
  const { io, flags, positionals } = ctx;
  if (positionals.length !== 2) throw new UsageError(`expected two runs (RUN_A RUN_B), got ${positionals.length}`);
  const r = rule(flags);
  const shape = format(flags);
  const roots = resolveOutputRoots(readEnvironment(process.env, REPO_ROOT), io.cwd);
  const [a, b] = positionals.map((ref) => loadRun(resolveRun(roots, ref, io.cwd))) as [StoredRun, StoredRun];
  for (const line of caveats(a, b)) io.stderr(`warning: ${line}\n`);

  const diffs = compareRuns(a.records, b.records, r);
  const heading = {
    a: { runId: a.layout.runId, mode: a.manifest.mode },
    b: { runId: b.layout.runId, mode: b.manifest.mode },
    rule: `--threshold ${r.threshold}${r.alpha !== undefined ? `, --alpha ${r.alpha}` : ""}`,
  };
  io.stdout(shape === "markdown" ? compareMarkdown(diffs, heading) : compareText(diffs, heading));
  return diffs.some((d) => d.regression) ? EXIT_DIFFERENCE : EXIT_OK;
}
