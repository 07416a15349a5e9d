/**
 * What `arena run` and `arena bench` share: resolve arenas, frameworks and config, run, and map
 * the outcome to an exit code.
 *
 * Exit codes: 0 the run completed and every item passed; 1 the run completed but some items
 * failed or errored (EXIT_ITEMS_FAILED); 2 a usage or input mistake (nothing ran); 3 the harness
 * itself failed.
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadArena } from "../arena/load.ts";
import type { Arena } from "../arena/schemas.ts";
import { LiveRefusedError, loadArenaConfig, readEnvironment, type Mode } from "../config/arena-config.ts";
import { runArenas, type AdapterEntry } from "../run/session.ts";
import { ADAPTER_CATALOG, findAdapter } from "../../workers/adapters/catalog.ts";
import { CorpusError, loadCorpus } from "../../workers/tools/search.ts";
import { UsageError, type CommandContext } from "./command.ts";
import { selectArenas } from "./common.ts";
import { progressReporter } from "./progress.ts";

export const EXIT_ITEMS_FAILED = 1;
export const EXIT_HARNESS_FAILURE = 3;

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function positiveInt(raw: unknown, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${flag} must be a positive integer, got '${String(raw)}'`);
  return n;
}

export function resolveFrameworks(raw: unknown): AdapterEntry[] {
  const names = Array.isArray(raw) ? (raw as string[]) : ["all"];
  const out: AdapterEntry[] = [];
  for (const name of names) {
    if (name === "all") {
      for (const e of ADAPTER_CATALOG) {
        if (!out.some((o) => o.name === e.name)) {
          out.push({ name: e.name, module: e.module, variant: e.arenas !== undefined, ...(e.arenas ? { onlyArenas: e.arenas } : {}) });
        }
      }
      continue;
    }
    const entry = findAdapter(name);
    if (!entry) {
      throw new UsageError(`unknown framework '${name}' (known: ${ADAPTER_CATALOG.map((e) => e.name).join(", ")}, all)`);
    }
    if (!out.some((o) => o.name === name)) out.push({ name, module: entry.module, variant: entry.arenas !== undefined });
  }
  return out;
}

export interface RunFlowOptions {
  readonly items?: readonly string[];
}

export async function runFlow(ctx: CommandContext, options: RunFlowOptions = {}): Promise<number> {
  const { flags, common, io } = ctx;
  const mode = (flags.mode ?? "mock") as string;
  if (mode !== "mock" && mode !== "live") throw new UsageError(`--mode must be mock or live, got '${mode}'`);
  const repeat = positiveInt(flags.repeat, "repeat", 1);
  const concurrency = positiveInt(flags.concurrency, "concurrency", os.availableParallelism());
  const frameworks = resolveFrameworks(flags.framework);

  let config;
  try {
    config = loadArenaConfig(readEnvironment(process.env, REPO_ROOT), { mode: mode as Mode, repeat });
  } catch (err) {
    if (err instanceof LiveRefusedError) {
      io.stderr(`${err.message}\n`);
      return 2;
    }
    throw err;
  }

  try {
    // Every worker loads the corpus too, but a bad one is the user's input: say so here, once,
    // instead of reporting every adapter as unavailable.
    loadCorpus(common.corpus);
  } catch (err) {
    if (err instanceof CorpusError) throw new UsageError(`--corpus ${err.message}`);
    throw err;
  }
  const arenas: Arena[] = selectArenas(common, io.cwd).map((ref) => loadArena(ref.dir));
  if (arenas.length === 0) throw new UsageError(`no arenas in ${common.arenasDir}`);
  if (options.items && options.items.length > 0) {
    for (const arena of arenas) {
      const known = new Set(arena.items.map((i) => i.id));
      const missing = options.items.filter((id) => !known.has(id));
      if (missing.length > 0) {
        throw new UsageError(
          `no such item(s) in '${arena.id}': ${missing.join(", ")}\navailable: ${arena.items.map((i) => i.id).join(", ")}`,
        );
      }
    }
  }

  const outcome = await runArenas({
    arenas,
    adapters: frameworks,
    config,
    corpusPath: common.corpus,
    concurrency,
    ...(options.items && options.items.length > 0 ? { itemFilter: options.items } : {}),
    dirs: {
      runsDir: path.join(REPO_ROOT, "runs"),
      resultsDir: path.join(REPO_ROOT, "results"),
      checkpointsDir: path.join(REPO_ROOT, "checkpoints"),
    },
    onProgress: progressReporter((t) => io.stderr(t), Boolean(process.stderr.isTTY)),
  });
  for (const record of outcome.records) {
    for (const fw of record.frameworks) {
      const passed = fw.items.filter((i) => i.passed).length;
      io.stdout(
        fw.available
          ? `${record.arena} ${fw.framework}: ${passed}/${fw.items.length} passed\n`
          : `${record.arena} ${fw.framework}: not available (${fw.reason})\n`,
      );
    }
  }
  for (const p of outcome.recordPaths) io.stdout(`record: ${path.relative(io.cwd, p)}\n`);
  if (outcome.summaryPath) io.stdout(`summary: ${path.relative(io.cwd, outcome.summaryPath)}\n`);
  return outcome.failedItems > 0 ? EXIT_ITEMS_FAILED : 0;
}
