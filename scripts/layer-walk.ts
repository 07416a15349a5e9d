/**
 * What the check after each leg costs the orchestrator (target 2c): `PrivateArea.leave` on a
 * sealed worker's layers laid out as a real run leaves them (the repository and the temp dir
 * covered, eight more output roots, the mount points' parents made inside as bubblewrap makes
 * them), with nothing written, many times over, in this process. Each tree given is measured in a
 * child process of its own, alternating, so two checkouts compare in one run.
 *
 * Usage: node scripts/layer-walk.ts [--rounds N] [--legs N] [TREE…]   (default TREE: this checkout)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";
import { childRoundsPerTree } from "./support/tree-rounds.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const COVERED = ["/r/repo", "/r/tmp", ...Array.from({ length: 8 }, (_, i) => `/r/out${i}`)];
const READABLE = [
  "/r/repo/orchestrator/supervisor/sandbox/splice.cjs",
  "/r/repo/orchestrator/supervisor/sandbox/bridge-preload.cjs",
  "/r/repo/packages",
  "/r/repo/contract",
  "/r/repo/node_modules",
  "/r/repo/package.json",
  "/r/repo/.venv",
  "/r/repo/workers",
  "/r/tmp/compile-cache/vanilla",
  "/r/tmp/bridge/9",
];
const CHECKPOINT_DIR = "/r/repo/checkpoints/run/s0/vanilla";
const WRITABLE = ["/r/tmp/workers/w9/tmp"];

/** In the child: lay the area out, let its folders settle, and time `legs` checks. Prints µs of CPU per check. */
async function child(tree: string, legs: number): Promise<void> {
  const { PrivateArea } = await import(pathToFileURL(path.join(tree, "orchestrator/supervisor/sandbox/private-area.ts")).href);
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-layer-walk-"));
  try {
    mkdirSync(path.join(root, "tmp"));
    const area = new PrivateArea({ layersRoot: path.join(root, "layers"), slot: path.join(root, "slot"), checkpointDir: CHECKPOINT_DIR, tmp: path.join(root, "tmp"), covered: COVERED, readable: READABLE, writable: WRITABLE });
    for (const [i, at] of COVERED.entries()) {
      for (const point of [...READABLE, CHECKPOINT_DIR, ...WRITABLE].filter((p) => p.startsWith(`${at}/`))) {
        const host = path.join(root, "layers", String(i), point.slice(at.length + 1));
        mkdirSync(path.dirname(host), { recursive: true });
        if (path.extname(point) !== "") writeFileSync(host, "");
        else mkdirSync(host, { recursive: true });
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    for (let i = 0; i < 200; i++) area.leave("/not-entered");
    const before = process.cpuUsage();
    for (let i = 0; i < legs; i++) if (area.leave("/not-entered").length > 0) throw new Error("a clean area reported a write");
    const used = process.cpuUsage(before);
    process.stdout.write(JSON.stringify({ cpuUs: (used.user + used.system) / legs, systemUs: used.system / legs }));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string" }, legs: { type: "string" }, child: { type: "string" } } });
const legs = Number(values.legs ?? 3000);
if (values.child !== undefined) {
  await child(values.child, legs);
} else {
  const trees = positionals.length > 0 ? positionals.map((t) => path.resolve(t)) : [REPO];
  const rounds = Number(values.rounds ?? 5);
  process.stdout.write(`load average at start ${loadAverage()}; ${rounds} rounds of ${legs} checks per tree\n\n`);
  const runs = await childRoundsPerTree<{ cpuUs: number; systemUs: number }>(import.meta.url, trees, rounds, ["--legs", String(legs)]);
  const samples = new Map([...runs].map(([tree, r]) => [tree, { cpu: r.map((x) => x.cpuUs), system: r.map((x) => x.systemUs) }]));
  process.stdout.write("| tree | CPU per check (µs, median) | of which system | rounds |\n|---|--:|--:|---|\n");
  for (const [tree, s] of samples) process.stdout.write(`| ${tree} | ${median(s.cpu).toFixed(0)} | ${median(s.system).toFixed(0)} | ${s.cpu.map((x) => x.toFixed(0)).join(" ")} |\n`);
  process.stdout.write(`\nload average at end ${loadAverage()}\n`);
}
