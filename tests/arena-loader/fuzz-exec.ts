/**
 * Runs the validator and the loader on every case folder of a fuzz corpus and prints one JSON line
 * per case. It runs as a child process so that a hang (a blocking open of a FIFO is a syscall no
 * in-process timer can interrupt) is caught by the parent's timeout instead of freezing the suite.
 *
 * Usage: node tests/arena-loader/fuzz-exec.ts <root> — cases are `<root>/<n>/demo`, n = 0, 1, …
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ArenaLoadError } from "../../orchestrator/arena/diagnostics.ts";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { validateArena } from "../../orchestrator/arena/validate.ts";

export interface CaseResult {
  readonly n: number;
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
  /** The ArenaLoadError's message, when the loader refused the arena. */
  readonly loadError?: string;
  /** The arena id and item ids, when it loaded. */
  readonly loaded?: readonly string[];
  /** Anything else thrown, by either: a crash. */
  readonly crash?: string;
  readonly ms: number;
}

const describe = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 500) : String(err));

function runCase(n: number, cwd: string): CaseResult {
  const dir = path.join(cwd, "demo");
  const started = performance.now();
  let errors: string[] = [];
  let warnings: string[] = [];
  try {
    const result = validateArena(dir, { cwd });
    errors = result.errors.map((d) => d.message);
    warnings = result.warnings.map((d) => d.message);
  } catch (err) {
    return { n, errors, warnings, crash: `validate: ${describe(err)}`, ms: performance.now() - started };
  }
  try {
    const arena = loadArena(dir, { cwd });
    return { n, errors, warnings, loaded: [arena.id, ...arena.items.map((i) => i.id)], ms: performance.now() - started };
  } catch (err) {
    const ms = performance.now() - started;
    if (err instanceof ArenaLoadError) return { n, errors, warnings, loadError: err.message, ms };
    return { n, errors, warnings, crash: `load: ${describe(err)}`, ms };
  }
}

const root = process.argv[2];
if (root === undefined) throw new Error("usage: fuzz-exec.ts <root>");
for (let n = 0; existsSync(path.join(root, String(n))); n++) {
  process.stdout.write(`${JSON.stringify(runCase(n, path.join(root, String(n))))}\n`);
}
