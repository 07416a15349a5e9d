/** `arena validate`: the §7 report per arena; exit 1 when any arena has an error. */
import { validateArena } from "../../arena/validate.ts";
import { UsageError, type CommandContext } from "../command.ts";
import { selectArenas } from "../common.ts";

export function run({ common, io }: CommandContext): number {
  const arenas = selectArenas(common, io.cwd);
  if (arenas.length === 0) throw new UsageError(`no arenas in ${common.arenasDir}`);
  let invalid = 0;
  for (const arena of arenas) {
    const { errors, warnings } = validateArena(arena.dir, { cwd: io.cwd });
    let out = "";
    for (const w of warnings) out += `  warn  ${arena.id}: ${w.message}\n`;
    for (const e of errors) out += `  ERROR ${arena.id}: ${e.message}\n`;
    out += errors.length === 0 ? `${arena.id}: ok\n` : `${arena.id}: ${errors.length} error(s)\n`;
    io.stdout(out);
    if (errors.length > 0) invalid++;
  }
  if (invalid > 0) io.stdout(`\n${invalid}/${arenas.length} arena(s) invalid\n`);
  return invalid > 0 ? 1 : 0;
}
