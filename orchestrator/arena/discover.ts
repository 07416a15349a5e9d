/** Finding arena folders: every sub-folder of the arenas directory, or one named by `--arena`. */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ArenaLookupError } from "./diagnostics.ts";

/** `<repo>/arenas`. */
export const DEFAULT_ARENAS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../arenas");

export interface ArenaRef {
  /** The folder name (which arena.toml's `id` must equal). */
  readonly id: string;
  /** Absolute path of the folder. */
  readonly dir: string;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Every arena folder, sorted by name. Any sub-folder counts (one without arena.toml is reported by
 * the validator rather than skipped); hidden folders do not.
 */
export function listArenas(arenasDir: string = DEFAULT_ARENAS_DIR): ArenaRef[] {
  const root = path.resolve(arenasDir);
  if (!isDir(root)) throw new ArenaLookupError(`arenas directory not found: ${arenasDir}`);
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort()
    .map((id) => ({ id, dir: path.join(root, id) }));
}

/** `--arena` value: an arena id (a folder of `arenasDir`) or a path to an arena folder. */
export function resolveArena(arg: string, arenasDir: string = DEFAULT_ARENAS_DIR, cwd: string = process.cwd()): ArenaRef {
  const looksLikePath = arg.includes("/") || arg.includes(path.sep) || arg === "." || arg === "..";
  if (!looksLikePath) {
    const dir = path.resolve(arenasDir, arg);
    if (isDir(dir)) return { id: arg, dir };
  }
  const dir = path.resolve(cwd, arg);
  if (isDir(dir)) return { id: path.basename(dir), dir };
  const known = existsSync(arenasDir) ? listArenas(arenasDir).map((a) => a.id) : [];
  const hint = known.length > 0 ? ` (available: ${known.join(", ")})` : "";
  throw new ArenaLookupError(`no such arena '${arg}' in ${arenasDir}${hint}`);
}
