/** `arena runs`: one row per run folder, oldest first: what it ran, how it did, whether it finished. */
import { readEnvironment } from "../../config/arena-config.ts";
import { HistoryError, loadRun, passCount, runIds, runScope, runStatus } from "../../history/runs.ts";
import { RunLayout } from "../../store/layout.ts";
import type { CommandContext } from "../command.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";
import { renderTable } from "../table.ts";

/** A long list (a bench: every arena, every adapter) is a count; a short one is named. */
function names(list: readonly string[]): string {
  return list.length <= 3 ? list.join(",") : `${list.length} (${list.slice(0, 2).join(",")},…)`;
}

/** `2026-12-01 08:12:43Z` from a run id, which is its start to the millisecond. */
export function runDate(id: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/.exec(id)!;
  return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}Z`;
}

export function run(ctx: CommandContext): number {
  const roots = resolveOutputRoots(readEnvironment(process.env, REPO_ROOT), ctx.io.cwd);
  const ids = runIds(roots);
  if (ids.length === 0) {
    ctx.io.stdout(`no runs in ${roots.runsDir}\n`);
    return 0;
  }
  const rows = [["id", "date", "mode", "arenas", "adapters", "passed", "status"]];
  for (const id of ids) {
    try {
      const { manifest, records } = loadRun(new RunLayout(roots, id));
      const adapters = records.length > 0 ? [...new Set(records.flatMap((r) => r.frameworks.map((f) => f.framework)))] : manifest.frameworks;
      const count = passCount(records);
      const notes = [count.errored ? `${count.errored} errored` : "", count.notServed ? `${count.notServed} not served` : ""].filter(Boolean).join(", ");
      const passed = count.cells + count.notServed === 0 ? "-" : `${count.passed}/${count.cells}${notes ? ` (${notes})` : ""}`;
      rows.push([id, runDate(id), manifest.mode, names(manifest.arenas.map((a) => a.id)), names(adapters), passed, `${runStatus(manifest)}${runScope(manifest)}`]);
    } catch (err) {
      if (!(err instanceof HistoryError)) throw err;
      rows.push([id, runDate(id), "-", "-", "-", "-", `unreadable: ${err.message}`]);
    }
  }
  ctx.io.stdout(renderTable(rows));
  return 0;
}
