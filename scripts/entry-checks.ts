/**
 * What finding each worker's bundle current costs an orchestrator: `workerEntry` (supervisor/
 * worker-entry.ts) for every TypeScript adapter of the catalogue, in a fresh process, as a run
 * that starts each adapter's first worker does it once per adapter. Each tree given is measured in
 * a child process of its own, alternating, so two checkouts compare in one run. The bundles must
 * be current in each tree (`pnpm build:workers`); a check that finds one stale is reported, since
 * the time would then be of a different path.
 *
 * Usage: node scripts/entry-checks.ts [--rounds N] [TREE…]   (default TREE: this checkout)
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";
import { childRoundsPerTree } from "./support/tree-rounds.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** In the child: every TypeScript adapter's check, once, timed together. Prints ms of CPU and wall. */
async function child(tree: string): Promise<void> {
  const { workerEntry } = await import(pathToFileURL(path.join(tree, "orchestrator/supervisor/worker-entry.ts")).href);
  const { ADAPTER_CATALOG } = await import(pathToFileURL(path.join(tree, "contract/catalogue.ts")).href);
  const adapters = (ADAPTER_CATALOG as { name: string; module: string }[]).filter((a) => !a.module.endsWith(".py"));
  const before = process.cpuUsage();
  const started = performance.now();
  const stale = adapters.filter((a) => !workerEntry(a).bundled).map((a) => a.name);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(before);
  process.stdout.write(JSON.stringify({ adapters: adapters.length, stale, cpuMs: (used.user + used.system) / 1000, wallMs }));
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string" }, child: { type: "string" } } });
if (values.child !== undefined) {
  await child(values.child);
} else {
  const trees = positionals.length > 0 ? positionals.map((t) => path.resolve(t)) : [REPO];
  const rounds = Number(values.rounds ?? 5);
  process.stdout.write(`load average at start ${loadAverage()}; ${rounds} rounds per tree\n\n`);
  const runs = await childRoundsPerTree<{ adapters: number; stale: string[]; cpuMs: number; wallMs: number }>(import.meta.url, trees, rounds);
  for (const [tree, r] of runs) {
    const stale = r.find((x) => x.stale.length > 0)?.stale;
    if (stale) throw new Error(`${tree}: no current bundle for ${stale.join(", ")} (run pnpm build:workers there first)`);
  }
  const samples = new Map([...runs].map(([tree, r]) => [tree, { cpu: r.map((x) => x.cpuMs), wall: r.map((x) => x.wallMs), adapters: r[0]?.adapters ?? 0 }]));
  process.stdout.write("| tree | adapters | CPU (ms, median) | wall (ms, median) | CPU per round |\n|---|--:|--:|--:|---|\n");
  for (const [tree, s] of samples) {
    process.stdout.write(`| ${tree} | ${s.adapters} | ${median(s.cpu).toFixed(0)} | ${median(s.wall).toFixed(0)} | ${s.cpu.map((x) => x.toFixed(0)).join(" ")} |\n`);
  }
  process.stdout.write(`\nload average at end ${loadAverage()}\n`);
}
