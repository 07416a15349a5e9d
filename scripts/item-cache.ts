/**
 * What a worker's first items cost with each checkout's bundle and code cache: per adapter, a
 * worker is started from the bundle a checkout built (its manifest's entry), builds on tool_use and
 * runs `--items` items against the stand-in model a bundle's warm-up uses
 * (orchestrator/supervisor/warm-item.ts: a calculator call, then the answer), and is shut down.
 * Each start runs in a cpuacct group of its own (the whole tree); the checkouts alternate start by
 * start. Unsealed, as one process beside another: the sandbox's own cost is the same for every
 * checkout and is measured elsewhere (scripts/preload-cost.ts, scripts/sandbox-cost.ts). Made to
 * tell a code cache that holds an item's run (2026-12-07 night) from one made after a build only.
 *
 *   node scripts/item-cache.ts --tree DIR [--tree DIR]... [--adapter NAME]... [--rounds N] [--items N]
 *   (default: vanilla, 10 rounds, 2 items)
 *
 * Each checkout must have built its bundles (`pnpm build:workers` there).
 */
import { fork } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { ToWorker } from "../contract/protocol.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { WarmModel } from "../orchestrator/supervisor/warm-item.ts";
import { cpuSecondsOf, forkInGroup, makeGroup, removeGroup } from "./support/cgroup.ts";
import { COLD_START_ARENA, coldStartConfig, median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";

/** The start file of `adapter`'s bundle in `tree`, from its manifest. */
function bundleStart(tree: string, adapter: string): string {
  const root = path.join(tree, "node_modules/.cache/arena-worker");
  const dir = readdirMatching(root, new RegExp(`^${adapter}-[0-9a-f]{8}$`));
  const manifest = JSON.parse(readFileSync(path.join(root, dir, "manifest.json"), "utf8")) as { entry: string };
  if (!manifest.entry.endsWith("start.cjs")) throw new Error(`${tree}: ${adapter}'s bundle is not one script (${manifest.entry})`);
  return path.join(root, dir, manifest.entry);
}

function readdirMatching(dir: string, pattern: RegExp): string {
  const found = readdirSync(dir).filter((d) => pattern.test(d));
  if (found.length !== 1) throw new Error(`${dir}: ${found.length} folders match ${pattern}; build the bundles there first`);
  return found[0]!;
}

/** One worker: start, build (as a measured cold start builds, but reaching the stand-in), `items` items, shut down; resolves when it has exited. */
function oneWorker(start: string, tree: string, adapter: string, baseUrl: string, items: number): Promise<void> {
  const checkpointDir = mkdtempSync(path.join(os.tmpdir(), "arena-item-cache-"));
  return new Promise((resolve, reject) => {
    const child = fork(start, [], { execArgv: [], serialization: "json", stdio: ["ignore", "ignore", "pipe", "ipc"], env: { PATH: process.env.PATH ?? "" } });
    let stderr = "";
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    let done = 0;
    const send = (m: ToWorker) => child.send(m);
    const run = () => send({ type: "run", job: `j${done}`, arena: COLD_START_ARENA.id, item: { id: `i${done}`, input: "What is 6 * 7?", resume_with: "approve", checkpointDir }, seat: 0 });
    child.on("message", (m: { type: string; reason?: string; result?: { error?: string | null } }) => {
      if (m.type === "ready") {
        send({
          type: "build",
          adapter: { name: adapter, module: path.join(tree, "workers/adapters", adapter, "index.ts") },
          arena: COLD_START_ARENA,
          config: { ...coldStartConfig("m"), baseUrl },
          corpusPath: DEFAULT_CORPUS_PATH,
          seat: 0,
        });
      } else if (m.type === "built") run();
      else if (m.type === "build_failed") reject(new Error(`${adapter} did not build: ${m.reason ?? ""}`));
      else if (m.type === "result" || m.type === "error") {
        if (m.type === "error" || m.result?.error) reject(new Error(`${adapter}: the item failed: ${JSON.stringify(m).slice(0, 300)}`));
        else if (++done < items) run();
        else send({ type: "shutdown" });
      }
    });
    child.on("exit", (code) => {
      rmSync(checkpointDir, { recursive: true, force: true });
      if (code === 0) resolve();
      else reject(new Error(`${adapter} exited ${code}: ${stderr.slice(-500)}`));
    });
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { tree: { type: "string", multiple: true }, adapter: { type: "string", multiple: true }, rounds: { type: "string", default: "10" }, items: { type: "string", default: "2" } },
  });
  const trees = (values.tree ?? []).map((t) => path.resolve(t));
  if (trees.length === 0) throw new Error("--tree DIR: at least one checkout");
  const rounds = Number(values.rounds);
  const items = Number(values.items);
  const model = await WarmModel.listen();
  const baseUrl = `http://127.0.0.1:${model.port}/v1`;
  try {
    process.stdout.write(`${rounds} rounds, ${items} item(s) a worker, load average ${loadAverage()}\n\n| adapter | ${trees.join(" | ")} |\n|---|${trees.map(() => "--:").join("|")}|\n`);
    for (const adapter of values.adapter ?? ["vanilla"]) {
      const starts = trees.map((t) => bundleStart(t, adapter));
      const cpu = trees.map(() => [] as number[]);
      for (let r = 0; r < rounds; r++) {
        for (const [i, tree] of trees.entries()) {
          const group = makeGroup("cpuacct", `arena-item-cache-${process.pid}-${r}-${i}`);
          try {
            await forkInGroup(group, () => oneWorker(starts[i]!, tree, adapter, baseUrl, items));
            cpu[i]!.push(cpuSecondsOf(group) * 1000);
          } finally {
            removeGroup(group);
          }
        }
      }
      process.stdout.write(`| ${adapter} | ${cpu.map((c) => `${median(c).toFixed(1)} ms`).join(" | ")} |\n`);
    }
    process.stdout.write(`\nload average at end ${loadAverage()}\n`);
  } finally {
    await model.close();
  }
}

await main();
