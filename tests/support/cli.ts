/** Running the real `arena` executable as a child process, with its outputs in a temp root. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { afterAll } from "vitest";
import { REPO_ROOT } from "./reference.ts";

// The folders made here go when the test file is done: a run's outputs are megabytes (its report
// alone), and `pnpm test` run over a day had left 3 GB of them in the temp dir.
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");

/** A temp output root (runs/, checkpoints/, results/ appear under it) and an env pointing at it. */
export function outputRoot(): { root: string; env: Record<string, string> } {
  const root = tempFolder("arena-out-");
  return { root, env: { ARENA_OUTPUT_ROOT: root } };
}

/** A copy of our arenas that a test may change. */
export function arenasCopy(): string {
  const dir = tempFolder("arena-arenas-");
  cpSync(path.join(REPO_ROOT, "arenas"), dir, { recursive: true });
  return dir;
}

/**
 * Rewrites the items of `arena`'s dataset in a copy of the arenas (arenasCopy): `edit` gets each
 * item's parsed line and returns the item to write, or undefined to leave the line as it was.
 */
export function editItems<T extends { id: string }>(arenasDir: string, arena: string, edit: (item: T) => T | undefined): void {
  const file = path.join(arenasDir, arena, "dataset.jsonl");
  const lines = readFileSync(file, "utf8").split("\n").map((line) => {
    if (!line.startsWith("{")) return line;
    const edited = edit(JSON.parse(line) as T);
    return edited === undefined ? line : JSON.stringify(edited);
  });
  writeFileSync(file, lines.join("\n"));
}

/** The CLI as a user runs it, from `cwd` (default: the repository). */
export function arenaCli(args: readonly string[], env: Record<string, string>, cwd: string = REPO_ROOT) {
  return execa(process.execPath, [BIN, ...args], {
    cwd,
    reject: false,
    // A fresh machine's environment, minus anything of the developer's that would change a run.
    env: { ARENA_LLM_MODE: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", ...env },
  });
}

/** Every file under `dir`, as relative paths. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

export function runIdsIn(root: string): string[] {
  return readdirSync(path.join(root, "runs")).filter((n) => /^\d{8}T\d{9}Z-[0-9a-f]{6}$/.test(n)).sort();
}

/** A scorecard with what differs between two honest runs taken out: timings and the run's own name. */
export function comparableScorecard(runDir: string, arena: string): { md: string; rows: unknown } {
  const dir = path.join(runDir, "scorecards", arena);
  const md = readFileSync(path.join(dir, "scorecard.md"), "utf8")
    .split("\n")
    .filter((l) => !l.startsWith("- **Run at:**") && !l.startsWith("- **Run:**"))
    .map((l) => l.replace(/\| [\d.]+s \|/g, "| (latency) |"))
    .join("\n");
  const json = JSON.parse(readFileSync(path.join(dir, "scorecard.json"), "utf8")) as { rows: Record<string, unknown>[] };
  const rows = json.rows.map(({ mean_latency_s: _latency, ...rest }) => rest);
  return { md, rows };
}
