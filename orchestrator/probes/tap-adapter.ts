/**
 * How a probe learns what an adapter module declares (delegates, wire exceptions with their
 * reasons: §2 and §8 judge them), without importing adapter code into the orchestrator's process
 * and without changing anything the adapter can observe.
 *
 * The worker loads a wrapper module (tapModule) that imports the adapter, reports its
 * declarations once over the worker's own IPC channel as a `log` message (the orchestrator writes
 * it to the worker's log in the run's log folder: readTap), and re-exports the very same adapter
 * object. Nothing is wrapped: build, run and resume are the adapter's own functions called by the
 * host, so no probe frame shows up in a stack trace, and no env variable or file is added. What
 * each leg returned comes from the orchestrator's side (RunOptions.onLegs), as the worker sent it.
 * The declarations are reported even when the harness then refuses the adapter.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Adapter } from "../../contract/adapter.ts";

/** What one answered leg returned, as the worker sent it (bulky fields dropped; a leg that failed is the item's error). */
export interface TapEntry {
  readonly leg: "run" | "resume";
  readonly item: string;
  readonly result: unknown;
}

/** What the adapter module declares (reported once per worker, on load). */
export interface TapDeclaration {
  readonly declared: {
    readonly delegates: readonly string[];
    readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
  };
}

const PREFIX = "arena-probe-tap ";
/** Starts each report in the worker log (the orchestrator writes a log message as `[worker debug] <message>`). */
const MARK = `[worker debug] ${PREFIX}`;

/** Called by the generated wrapper once the adapter module has loaded. */
export function declare(adapter: Adapter | undefined): void {
  const declared = {
    delegates: [...(adapter?.delegates ?? [])],
    wireExceptions: (adapter?.wireExceptions ?? []).map((e) => ({ key: e.key, reason: e.reason })),
  };
  process.send?.({ type: "log", level: "debug", message: `${PREFIX}${JSON.stringify({ declared })}` });
}

/**
 * The wrapper module for `innerModule` (written once, then reused): its path depends only on its
 * content, so it is the same module for every run of the same adapter — which keeps the sealed
 * workers' compile cache current (compile-cache.ts stamps the module's path and folder) instead of
 * warming a fresh one per run. Read, never written, by the worker.
 */
export function tapModule(innerModule: string): string {
  const source = [
    `import adapter from ${JSON.stringify(pathToFileURL(innerModule).href)};`,
    `import { declare } from ${JSON.stringify(import.meta.url)};`,
    "declare(adapter);",
    "export default adapter;",
    "",
  ].join("\n");
  const dir = path.join(os.tmpdir(), `arena-tap-${createHash("sha256").update(source).digest("hex").slice(0, 16)}`);
  const file = path.join(dir, "tap.mjs");
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  // Whole or not at all: another process may be writing the same module at the same moment.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, source);
  renameSync(partial, file);
  return file;
}

/** The declaration in the run's worker logs (the first worker's: every worker loads the same module). */
export function readDeclaration(logDir: string): TapDeclaration | undefined {
  for (const f of readdirSync(logDir).filter((n) => n.endsWith(".log")).sort()) {
    const line = readFileSync(path.join(logDir, f), "utf8").split("\n").find((l) => l.startsWith(MARK));
    if (line) return JSON.parse(line.slice(MARK.length)) as TapDeclaration;
  }
  return undefined;
}
