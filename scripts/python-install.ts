/**
 * The Python environment's install, uv against pip, both from the same hashed lock
 * (workers/python/requirements.lock): wall time with an empty download cache (cold) and with the
 * cache the cold build filled (warm), the venv's size, and the import time of the three
 * frameworks in it (bytecode present or not matters: workers run with -B and never write it).
 *
 *   node scripts/python-install.ts [--rounds N]
 *
 * Each build goes to a temp folder with its own cache; nothing here touches .venv/.
 */
import { execa } from "execa";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { median } from "./support/measure.ts";
import { basePython, bootstrapUv, build, duBytes } from "./python-env/setup.ts";
import type { Installer } from "./python-env/env.ts";

const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1] ?? 0) || 3;
const base = await basePython(process.env.ARENA_PYTHON_BASE?.trim() || "python3");
if (base === null) throw new Error("no python3 to build from");
await bootstrapUv(base);
const IMPORT = "import pydantic_ai, smolagents, agent_framework.openai";

const rows: string[] = [];
for (const installer of ["uv", "pip"] as Installer[]) {
  const cold: number[] = [], warm: number[] = [], imports: number[] = [];
  let size = 0;
  for (let r = 0; r < rounds; r++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), `arena-pyinstall-${installer}-`));
    const env = { UV_CACHE_DIR: path.join(dir, "cache"), PIP_CACHE_DIR: path.join(dir, "cache") };
    try {
      for (const into of [cold, warm]) {
        const t = performance.now();
        await build(base, installer, path.join(dir, "venv"), env);
        into.push((performance.now() - t) / 1000);
      }
      size = (await duBytes(path.join(dir, "venv"))) ?? 0;
      const t = performance.now();
      await execa(path.join(dir, "venv", "bin", "python"), ["-s", "-B", "-c", IMPORT]);
      imports.push((performance.now() - t) / 1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  rows.push(`| ${installer} | ${median(cold).toFixed(1)} s | ${median(warm).toFixed(1)} s | ${(size / 2 ** 20).toFixed(0)} MiB | ${median(imports).toFixed(2)} s |`);
}
process.stdout.write(`rounds: ${rounds} (medians)\n\n| installer | cold cache | warm cache | venv size | import of the three frameworks |\n|---|--:|--:|--:|--:|\n${rows.join("\n")}\n`);
