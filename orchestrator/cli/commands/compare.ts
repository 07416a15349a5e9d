/**
 * `arena compare RUN_A RUN_B`: the two runs item by item, per arena × framework, and exit 1 when
 * a lane regresses by the rule in history/compare.ts (for CI: B is the candidate, A the baseline).
 * Cells the provider failed in either run are named on their own line and never regress.
 */
import { readEnvironment } from "../../config/arena-config.ts";
import { MAX_COUNT, parseCount, parseDecimal } from "../../config/values.ts";
import { compareRuns, rateText, type Cell, type CompareRule, type LaneDiff } from "../../history/compare.ts";
import { loadRun, resolveRun, type StoredRun } from "../../history/runs.ts";
import { UsageError, type CommandContext } from "../command.ts";
import { EXIT_DIFFERENCE, EXIT_OK } from "../exit-codes.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";
import { renderTable } from "../table.ts";

const cellText = (c: Cell) => `${c.item_id}${c.repeat ? `#${c.repeat}` : ""}`;

function rule(flags: CommandContext["flags"]): CompareRule {
  const threshold = flags.threshold === undefined ? 0 : parseCount(String(flags.threshold), "--threshold", { min: 0, max: MAX_COUNT });
  if (flags.alpha === undefined) return { threshold };
  return { threshold, alpha: parseDecimal(String(flags.alpha), "--alpha", { min: 0, max: 1, exclusiveMin: true }) };
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

function verdict(d: LaneDiff): string {
  if (d.regression) return "REGRESSION";
  if (d.a === undefined) return "only in B";
  if (d.b === undefined) return "only in A";
  return d.lost.length > 0 ? "lost (within rule)" : d.gained.length > 0 ? "improved" : "same";
}

export function run(ctx: CommandContext): number {
  const { io, flags, positionals } = ctx;
  if (positionals.length !== 2) throw new UsageError(`expected two runs (RUN_A RUN_B), got ${positionals.length}`);
  const r = rule(flags);
  const roots = resolveOutputRoots(readEnvironment(process.env, REPO_ROOT), io.cwd);
  const [a, b] = positionals.map((ref) => loadRun(resolveRun(roots, ref, io.cwd))) as [StoredRun, StoredRun];
  for (const line of caveats(a, b)) io.stderr(`warning: ${line}\n`);

  const diffs = compareRuns(a.records, b.records, r);
  io.stdout(`A: ${a.layout.runId}\nB: ${b.layout.runId}\n\n`);
  const rows = [["arena", "framework", "A", "B", "lost", "gained", "p", "verdict"]];
  for (const d of diffs) {
    rows.push([d.arena, d.framework, rateText(d.a), rateText(d.b), String(d.lost.length), String(d.gained.length), d.pValue.toFixed(3), verdict(d)]);
  }
  io.stdout(renderTable(rows));
  for (const d of diffs) {
    const lane = `${d.arena}/${d.framework}`;
    if (d.lost.length > 0) io.stdout(`  lost   ${lane}: ${d.lost.map(cellText).join(", ")}\n`);
    if (d.gained.length > 0) io.stdout(`  gained ${lane}: ${d.gained.map(cellText).join(", ")}\n`);
    if (d.notServedA.length + d.notServedB.length > 0) {
      const which = (cells: readonly Cell[]) => (cells.length > 0 ? cells.map(cellText).join(", ") : "none");
      io.stdout(`  not served by the provider ${lane} (not compared): A ${which(d.notServedA)}; B ${which(d.notServedB)}\n`);
    }
    if (d.a && d.b && d.unpairedA + d.unpairedB > 0) io.stdout(`  unpaired ${lane}: ${d.unpairedA} cell(s) only in A, ${d.unpairedB} only in B\n`);
  }
  const regressions = diffs.filter((d) => d.regression);
  const ruleText = `--threshold ${r.threshold}${r.alpha !== undefined ? `, --alpha ${r.alpha}` : ""}`;
  if (regressions.length === 0) {
    io.stdout(`no regression (${ruleText})\n`);
    return EXIT_OK;
  }
  io.stdout(`${regressions.length} regression(s) (${ruleText}): ${regressions.map((d) => `${d.arena}/${d.framework}`).join(", ")}\n`);
  return EXIT_DIFFERENCE;
}
