/**
 * `mastra`: one Mastra Agent (@mastra/core) run by Mastra's own agentic loop over its model router,
 * pointed at the arena's gateway. See README.md for how each shared control is wired and what the
 * framework could not do. The framework is imported inside `build` only, so the version can be read
 * (and reported as not installed) without it.
 */
import { findPackageJSON } from "node:module";
import { readFileSync } from "node:fs";
import type { Adapter, Runner } from "../../../contract/adapter.ts";

function versionOf(pkg: string): string | null {
  try {
    const file = findPackageJSON(pkg, import.meta.url);
    return file ? (JSON.parse(readFileSync(file, "utf8")).version as string) : null;
  } catch {
    return null;
  }
}

/** `@mastra/core <v> (libsql <v>)`, or `(not installed)`; never throws. */
export function mastraVersion(): string {
  const core = versionOf("@mastra/core");
  if (core === null) return "@mastra/core (not installed)";
  return `@mastra/core ${core} (@mastra/libsql ${versionOf("@mastra/libsql") ?? "(not installed)"})`;
}

const adapter: Adapter = {
  name: "mastra",
  libVersion: mastraVersion,
  async build(arena, config, ctx): Promise<Runner> {
    const { buildMastraRunner } = await import("./runner.ts");
    return buildMastraRunner(arena, config, ctx);
  },
};
export default adapter;
