/** Helpers for tests that run the real orchestrator with real worker processes. */
import path from "node:path";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import { runArenas, type AdapterEntry, type RunOptions } from "../../orchestrator/run/index.ts";
import { findAdapter } from "../../contract/catalogue.ts";
import { tempDirs } from "../../orchestrator/probes/wire.ts";
import { REPO_ROOT } from "./reference.ts";
import type { PyDict } from "@agentic-arena/py-semantics";

export const OUR_ARENAS = path.join(REPO_ROOT, "arenas");
export const OUR_CORPUS = path.join(OUR_ARENAS, "corpus.json");

export function adapterEntry(name: string): AdapterEntry {
  const e = findAdapter(name);
  if (!e) throw new Error(`no adapter ${name}`);
  return { name: e.name, module: e.module, variant: e.arenas !== undefined };
}

/** A temp root with the run dirs a test run needs (one copy, shared with the probe registry). */
export { tempDirs };

export interface QuickRun extends Partial<Omit<RunOptions, "arenas" | "adapters" | "config">> {
  readonly arenaDirs: readonly string[];
  readonly adapters: readonly AdapterEntry[];
  readonly corpusPath: string;
  readonly config?: Partial<ArenaConfig>;
}

/** Run the real orchestrator in mock mode, writing nothing, and return the run records. */
export async function quickRun(options: QuickRun) {
  const { arenaDirs, config, ...rest } = options;
  return runArenas({
    dirs: tempDirs().dirs,
    ...rest,
    arenas: arenaDirs.map((d) => loadArena(d)),
    config: { ...DEFAULTS, ...config },
  });
}

/** The first user message's text of a recorded request body (the item's question, as the worker sent it). */
export function firstUserText(body: PyDict): string | undefined {
  const messages = body.get("messages");
  if (!Array.isArray(messages)) return undefined;
  const user = messages.find((m) => m instanceof Map && m.get("role") === "user") as PyDict | undefined;
  const content = user?.get("content");
  return typeof content === "string" ? content : undefined;
}
