/** `arena list`: one row per arena. An arena that does not load is listed with its error (exit 1). */
import { ArenaLoadError } from "../../arena/diagnostics.ts";
import { loadArena } from "../../arena/load.ts";
import type { CommandContext } from "../command.ts";
import { selectArenas } from "../common.ts";

const DESCRIPTION_WIDTH = 72;

function clip(s: string): string {
  return s.length <= DESCRIPTION_WIDTH ? s : `${s.slice(0, DESCRIPTION_WIDTH - 1)}…`;
}

export function run({ common, io }: CommandContext): number {
  const rows: string[][] = [["id", "items", "tools", "durable", "description"]];
  let failed = 0;
  for (const ref of selectArenas(common, io.cwd)) {
    try {
      const a = loadArena(ref.dir, { cwd: io.cwd });
      const tools = a.declaredTools.length > 0 ? a.declaredTools.join(",") : "(all)";
      rows.push([ref.id, String(a.items.length), tools, a.durable ? "yes" : "no", clip(a.description)]);
    } catch (err) {
      if (!(err instanceof ArenaLoadError)) throw err;
      failed++;
      rows.push([ref.id, "-", "-", "-", `does not load: ${err.message}`]);
    }
  }
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  const render = (r: string[]) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ");
  io.stdout(rows.map(render).join("\n") + "\n");
  return failed > 0 ? 1 : 0;
}
