/**
 * Flags several commands share, parsed and resolved in one place so `validate`, `list`, `run`,
 * `bench` … agree on their meaning and defaults.
 */
import path from "node:path";
import type { ParseArgsOptionDescriptor } from "node:util";
import { DEFAULT_ARENAS_DIR, listArenas, resolveArena, type ArenaRef } from "../arena/discover.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { ArenaLookupError } from "../arena/diagnostics.ts";
import { didYouMean } from "./suggest.ts";

export interface CommonFlagSpec {
  readonly option: ParseArgsOptionDescriptor;
  readonly usage: string;
  readonly description: string;
}

export const COMMON_FLAGS = {
  "arenas-dir": {
    option: { type: "string" },
    usage: "[--arenas-dir DIR]",
    description: "folder holding one sub-folder per arena (default: <repo>/arenas)",
  },
  arena: {
    option: { type: "string", multiple: true },
    usage: "[--arena ID|PATH]...",
    description: "an arena id (a folder of the arenas dir) or a path to an arena folder; repeatable (default: all)",
  },
  corpus: {
    option: { type: "string" },
    usage: "[--corpus FILE]",
    description: "the search corpus the tools read (default: the built-in arenas/corpus.json, whatever --arenas-dir is)",
  },
} as const satisfies Record<string, CommonFlagSpec>;

export type CommonFlag = keyof typeof COMMON_FLAGS;

export interface CommonOptions {
  /** Absolute. */
  readonly arenasDir: string;
  /** `--arena` values as given (ids or paths), in order; empty = every arena. */
  readonly arenas: readonly string[];
  /** Absolute. */
  readonly corpus: string;
}

/** Resolves parsed values of the common flags; relative paths are taken against `cwd`. */
export function resolveCommon(values: Readonly<Record<string, unknown>>, cwd: string): CommonOptions {
  const str = (name: string): string | undefined => {
    const v = values[name];
    return typeof v === "string" ? v : undefined;
  };
  const arenasDir = path.resolve(cwd, str("arenas-dir") ?? DEFAULT_ARENAS_DIR);
  const arenaValues = values["arena"];
  return {
    arenasDir,
    arenas: Array.isArray(arenaValues) ? arenaValues.filter((v): v is string => typeof v === "string") : [],
    corpus: str("corpus") === undefined ? DEFAULT_CORPUS_PATH : path.resolve(cwd, str("corpus")!),
  };
}

/** The arenas a command works on: those named by `--arena`, else every folder of the arenas dir. */
export function selectArenas(common: CommonOptions, cwd: string): ArenaRef[] {
  if (common.arenas.length === 0) return listArenas(common.arenasDir);
  return common.arenas.map((arg) => {
    try {
      return resolveArena(arg, common.arenasDir, cwd);
    } catch (err) {
      if (!(err instanceof ArenaLookupError) || arg.includes("/")) throw err;
      let known: string[] = [];
      try {
        known = listArenas(common.arenasDir).map((a) => a.id);
      } catch {
        throw err;
      }
      const hint = didYouMean(arg, known);
      throw hint ? new ArenaLookupError(err.message.replace(` in ${common.arenasDir}`, ` in ${common.arenasDir}${hint}`)) : err;
    }
  });
}
