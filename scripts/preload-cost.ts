/**
 * What the sealed Node worker's bridge preload (orchestrator/supervisor/sandbox/bridge-preload.*)
 * adds to every sealed worker's start, per checkout: `bwrap … --unshare-net -- node <preload flag>
 * -e <script>`, where the script loads the `node:http` client as the baseline does
 * (support/measure.ts) and exits, beside the floor taken in the same rounds, the same command with
 * no preload. Each start runs in a cpuacct group of its own (the whole tree: bwrap too); the
 * variants alternate start by start, so the machine's drift falls on all alike. The routes name a
 * Unix socket that is never connected to: what is measured is the preload's load and its
 * listeners, not a connection. Every variant's compile cache is warmed by one unmeasured start
 * outside the sandbox, as a run warms its workers' (supervisor/sandbox/compile-cache.ts).
 *
 *   node scripts/preload-cost.ts [--rounds N] [--tree DIR]...   (default: this checkout, 30 rounds)
 *
 * A checkout whose preload is the TypeScript one (before 3be914d, 2026-12-07 night) is started with
 * `--import`, as its orchestrator started it; the CommonJS one with `--require`.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";
import { BASE_FLAGS, detectBwrap } from "../orchestrator/supervisor/sandbox/mode.ts";
import { commandInGroups, cpuSecondsOf, makeGroup, removeGroup } from "./support/cgroup.ts";
import { HTTP_CLIENT, median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";

const HERE = fileURLToPath(new URL("..", import.meta.url));
const SCRIPT = `${HTTP_CLIENT}; setTimeout(() => process.exit(0), 5)`;

interface Variant {
  readonly label: string;
  /** Node flags before `-e`. */
  readonly flags: readonly string[];
  readonly cache: string;
}

function preloadFlags(tree: string): string[] {
  const dir = path.join(tree, "orchestrator/supervisor/sandbox");
  if (existsSync(path.join(dir, "bridge-preload.cjs"))) return ["--require", path.join(dir, "bridge-preload.cjs")];
  if (existsSync(path.join(dir, "bridge-preload.ts"))) return ["--import", pathToFileURL(path.join(dir, "bridge-preload.ts")).href];
  throw new Error(`${tree}: no bridge preload under orchestrator/supervisor/sandbox/`);
}

function env(v: Variant): Record<string, string> {
  return { PATH: process.env.PATH ?? "", NODE_COMPILE_CACHE: v.cache, ARENA_SANDBOX_BRIDGE: JSON.stringify([{ port: 4321, socket: path.join(v.cache, "never.sock") }]) };
}

async function startCpuMs(bwrap: string, v: Variant, tag: string): Promise<number> {
  const group = makeGroup("cpuacct", `arena-preload-${process.pid}-${tag}`);
  try {
    const [shell, args] = commandInGroups([group], [bwrap, ...BASE_FLAGS, "--unshare-net", "--", process.execPath, ...v.flags, "-e", SCRIPT]);
    const run = await execa(shell, args, { env: env(v), extendEnv: false, reject: false });
    if (run.exitCode !== 0) throw new Error(`${v.label}: exit ${run.exitCode}: ${String(run.stderr).slice(-500)}`);
    return cpuSecondsOf(group) * 1000;
  } finally {
    removeGroup(group);
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "30" }, tree: { type: "string", multiple: true } } });
  const rounds = Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: ${values.rounds} is not a whole number of rounds`);
  const found = detectBwrap();
  if (!found.ok) throw new Error(`no working bwrap here: ${found.reason}`);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-preload-cost-"));
  try {
    const trees = (values.tree ?? [HERE]).map((t) => path.resolve(t));
    const variants: Variant[] = [
      { label: "no preload (the floor)", flags: [], cache: path.join(scratch, "floor") },
      ...trees.map((tree, i) => ({ label: `${path.resolve(tree) === path.resolve(HERE) ? "this checkout" : tree}: ${preloadFlags(tree)[0]} preload`, flags: preloadFlags(tree), cache: path.join(scratch, `t${i}`) })),
    ];
    for (const v of variants) await execa(process.execPath, [...v.flags, "-e", SCRIPT], { env: env(v), extendEnv: false });
    const cpu = new Map<Variant, number[]>(variants.map((v) => [v, []]));
    for (let r = 0; r < rounds; r++) {
      for (const [i, v] of variants.entries()) cpu.get(v)!.push(await startCpuMs(found.bwrap.path, v, `${r}-${i}`));
    }
    const floor = median(cpu.get(variants[0]!)!);
    process.stdout.write(`${rounds} rounds, ${os.cpus().length} cores, load average ${loadAverage()}\n\n| start | median tree CPU (ms) | above the floor (ms) |\n|---|--:|--:|\n`);
    for (const v of variants) {
      const m = median(cpu.get(v)!);
      process.stdout.write(`| ${v.label} | ${m.toFixed(1)} | ${v === variants[0] ? "—" : (m - floor).toFixed(1)} |\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
