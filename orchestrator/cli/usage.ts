/** Usage text, generated from the command registry so it cannot fall out of date. */
import type { Command } from "./command.ts";
import { COMMON_FLAGS } from "./common.ts";

export function programUsage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return ["usage: arena <command> [options]", "", "commands:", ...lines, "", "Run `arena <command> --help` for a command's options.", ""].join("\n");
}

export function commandUsage(cmd: Command): string {
  const synopsis = [`arena ${cmd.name}`];
  const rows: [string, string][] = [];
  for (const name of cmd.common) {
    synopsis.push(COMMON_FLAGS[name].usage);
    rows.push([COMMON_FLAGS[name].usage.replace(/^\[|\](\.\.\.)?$/g, ""), COMMON_FLAGS[name].description]);
  }
  for (const [name, spec] of Object.entries(cmd.flags ?? {})) {
    const value = spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : "";
    const flag = `--${name}${value}`;
    synopsis.push(`[${flag}]${spec.multiple ? "..." : ""}`);
    rows.push([spec.short ? `-${spec.short}, ${flag}` : flag, spec.description]);
  }
  if (cmd.positionals) synopsis.push(cmd.positionals);
  const width = Math.max(0, ...rows.map(([f]) => f.length));
  const options = rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`);
  return [`usage: ${synopsis.join(" ")}`, "", cmd.summary, ...(options.length ? ["", "options:", ...options] : []), ""].join("\n");
}
