/**
 * What sealing costs: the same `arena bench` run with `ARENA_SANDBOX=bwrap` and `ARENA_SANDBOX=off`
 * in alternation, each in a cpuacct cgroup of its own so its CPU is the whole process tree's —
 * every worker, bwrap, and the workers SIGKILLed inside the sandbox at a durable restart, which
 * rusage (what `time` reads) misses. Needs a writable cgroup v1 cpuacct hierarchy (root on Linux);
 * anything else is an error, never a figure from a lesser clock.
 *
 * Usage: node scripts/sandbox-cost.ts [--rounds N] [--warmup N] [-- <bench args>]
 *        default bench args: --quiet --arena durable_state --arena tool_use
 *
 * The first `--warmup` pairs (default 1) are run and shown but not counted: after any edit to a
 * source a worker compiles, the first sealed run also pays the one-time warm-up of each
 * adapter's read-only compile cache (compile-cache.ts), which is not a price per run. Both the
 * ratio of the sums and the median of the per-round ratios are given: one bench varies by 10–20%
 * from run to run on a shared machine, and pairing by round cancels a drift of the machine.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";
import { commandInGroups, cpuSecondsOf, hierarchyOf, makeGroup, removeGroup } from "./support/cgroup.ts";

const BIN = fileURLToPath(new URL("../orchestrator/cli/bin.mjs", import.meta.url));

interface Sample {
  readonly mode: "bwrap" | "off";
  readonly cpuSeconds: number;
  /** The orchestrator process's own share (the gateway, the bridge's forwarders, the watcher), sampled every 50 ms until it exits. */
  readonly orchestratorSeconds: number;
  readonly wallSeconds: number;
  readonly exitCode: number;
}

/** One bench in a fresh cgroup; the shell joins it before it execs node, so nothing escapes it. */
async function sample(mode: Sample["mode"], benchArgs: readonly string[], round: number): Promise<Sample> {
  const group = makeGroup("cpuacct", `arena-sandbox-cost-${process.pid}-${round}-${mode}`);
  const output = mkdtempSync(path.join(os.tmpdir(), "arena-sandbox-cost-"));
  try {
    const started = performance.now();
    const [shell, args] = commandInGroups([group], [process.execPath, BIN, "bench", ...benchArgs]);
    const subprocess = execa(shell, args, {
      env: { ...process.env, ARENA_SANDBOX: mode, ARENA_OUTPUT_ROOT: output },
      reject: false,
      stdio: ["ignore", "ignore", "pipe"],
    });
    // The shell execs node, so its pid is the orchestrator's.
    let orchestratorSeconds = 0;
    const poll = setInterval(() => {
      const seen = subprocess.pid === undefined ? undefined : processCpuSeconds(subprocess.pid);
      if (seen !== undefined) orchestratorSeconds = seen;
    }, 50);
    const run = await subprocess.finally(() => clearInterval(poll));
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSecondsOf(group);
    if (run.exitCode !== 0) process.stderr.write(`${mode} round ${round}: bench exited ${run.exitCode}\n${String(run.stderr).slice(-2000)}\n`);
    return { mode, cpuSeconds, orchestratorSeconds, wallSeconds, exitCode: run.exitCode ?? -1 };
  } finally {
    rmSync(output, { recursive: true, force: true });
    removeGroup(group);
  }
}

/** utime + stime of a live process (Linux /proc; fields 14 and 15, in clock ticks of 1/100 s). */
function processCpuSeconds(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export async function sandboxCost(rounds: number, benchArgs: readonly string[], warmup = 1): Promise<string> {
  try {
    removeGroup(makeGroup("cpuacct", `arena-sandbox-cost-probe-${process.pid}`));
  } catch (err) {
    throw new Error(`sandbox-cost needs a writable cpuacct cgroup below ${hierarchyOf("cpuacct")} (root on Linux with cgroup v1): ${(err as Error).message}`);
  }
  const samples: (Sample & { round: number })[] = [];
  // Alternating, starting with each mode in turn, so a drift of the machine falls on both.
  for (let r = 0; r < warmup + rounds; r++) {
    for (const mode of r % 2 === 0 ? (["bwrap", "off"] as const) : (["off", "bwrap"] as const)) samples.push({ ...(await sample(mode, benchArgs, r)), round: r });
  }
  const counted = samples.filter((s) => s.round >= warmup);
  const rows = samples.map((s) => `| ${s.round < warmup ? `warm-up ${s.round + 1}` : s.round - warmup + 1} | ${s.mode} | ${s.cpuSeconds.toFixed(2)} | ${s.orchestratorSeconds.toFixed(2)} | ${s.wallSeconds.toFixed(1)} | ${s.exitCode} |`);
  const cpu = (mode: Sample["mode"]) => counted.filter((s) => s.mode === mode).reduce((a, s) => a + s.cpuSeconds, 0);
  const ratios = [...new Set(counted.map((s) => s.round))].map((r) => {
    const of = (mode: Sample["mode"]) => counted.find((s) => s.round === r && s.mode === mode)!.cpuSeconds;
    return of("bwrap") / of("off");
  });
  return [
    `arena bench ${benchArgs.join(" ")}, ${rounds} round(s) after ${warmup} warm-up pair(s), alternating; CPU of the whole process tree from cpuacct`,
    "",
    "| round | ARENA_SANDBOX | CPU s | of which the orchestrator | wall s | exit |",
    "|---|---|--:|--:|--:|--:|",
    ...rows,
    "",
    `CPU bwrap / off, counted rounds: ${(cpu("bwrap") / cpu("off")).toFixed(3)}× (sums); per round ${ratios.map((r) => r.toFixed(3)).join(", ")}; median ${median(ratios).toFixed(3)}×`,
    "",
  ].join("\n");
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { rounds: { type: "string", default: "2" }, warmup: { type: "string", default: "1" } }, allowPositionals: true });
  const benchArgs = positionals.length > 0 ? positionals : ["--quiet", "--arena", "durable_state", "--arena", "tool_use"];
  process.stdout.write(await sandboxCost(Number(values.rounds), benchArgs, Number(values.warmup)));
}
