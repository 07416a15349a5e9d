/**
 * What sealing costs: the same `arena bench` run with `ARENA_SANDBOX=bwrap` and `ARENA_SANDBOX=off`
 * in alternation, each in a cpuacct cgroup of its own so its CPU is the whole process tree's —
 * every worker, bwrap, and the workers SIGKILLed inside the sandbox at a durable restart, which
 * rusage (what `time` reads) misses. Needs a writable cgroup v1 cpuacct hierarchy (root on Linux);
 * anything else is an error, never a figure from a lesser clock.
 *
 * Usage: node scripts/sandbox-cost.ts [--rounds N] [-- <bench args>]
 *        default bench args: --quiet --arena durable_state --arena tool_use
 */
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";

const CPUACCT = "/sys/fs/cgroup/cpuacct";
const BIN = fileURLToPath(new URL("../orchestrator/cli/bin.mjs", import.meta.url));

interface Sample {
  readonly mode: "bwrap" | "off";
  readonly cpuSeconds: number;
  readonly wallSeconds: number;
  readonly exitCode: number;
}

/** One bench in a fresh cgroup; the shell joins it before it execs node, so nothing escapes it. */
async function sample(mode: Sample["mode"], benchArgs: readonly string[], round: number): Promise<Sample> {
  const group = path.join(CPUACCT, `arena-sandbox-cost-${process.pid}-${round}-${mode}`);
  mkdirSync(group);
  const output = mkdtempSync(path.join(os.tmpdir(), "arena-sandbox-cost-"));
  try {
    const started = performance.now();
    const run = await execa("sh", ["-c", `echo $$ > ${group}/cgroup.procs && exec "$0" "$@"`, process.execPath, BIN, "bench", ...benchArgs], {
      env: { ...process.env, ARENA_SANDBOX: mode, ARENA_OUTPUT_ROOT: output },
      reject: false,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuSeconds = Number(readFileSync(path.join(group, "cpuacct.usage"), "utf8").trim()) / 1e9;
    if (run.exitCode !== 0) process.stderr.write(`${mode} round ${round}: bench exited ${run.exitCode}\n${String(run.stderr).slice(-2000)}\n`);
    return { mode, cpuSeconds, wallSeconds, exitCode: run.exitCode ?? -1 };
  } finally {
    rmSync(output, { recursive: true, force: true });
    // Empty once every process of the tree has exited; a leftover would keep it (and say so).
    try {
      rmdirSync(group);
    } catch (err) {
      process.stderr.write(`cgroup ${group} not removed: ${(err as Error).message}\n`);
    }
  }
}

export async function sandboxCost(rounds: number, benchArgs: readonly string[]): Promise<string> {
  try {
    mkdirSync(path.join(CPUACCT, `arena-sandbox-cost-probe-${process.pid}`));
    rmdirSync(path.join(CPUACCT, `arena-sandbox-cost-probe-${process.pid}`));
  } catch (err) {
    throw new Error(`sandbox-cost needs a writable cpuacct cgroup at ${CPUACCT} (root on Linux with cgroup v1): ${(err as Error).message}`);
  }
  const samples: Sample[] = [];
  // Alternating, starting with each mode in turn, so a drift of the machine falls on both.
  for (let r = 0; r < rounds; r++) for (const mode of r % 2 === 0 ? (["bwrap", "off"] as const) : (["off", "bwrap"] as const)) samples.push(await sample(mode, benchArgs, r));
  const rows = samples.map((s) => `| ${s.mode} | ${s.cpuSeconds.toFixed(2)} | ${s.wallSeconds.toFixed(1)} | ${s.exitCode} |`);
  const cpu = (mode: Sample["mode"]) => samples.filter((s) => s.mode === mode).reduce((a, s) => a + s.cpuSeconds, 0);
  return [
    `arena bench ${benchArgs.join(" ")}, ${rounds} round(s), alternating; CPU of the whole process tree from cpuacct`,
    "",
    "| ARENA_SANDBOX | CPU s | wall s | exit |",
    "|---|--:|--:|--:|",
    ...rows,
    "",
    `CPU bwrap / off: ${(cpu("bwrap") / cpu("off")).toFixed(3)}×`,
    "",
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ options: { rounds: { type: "string", default: "2" } }, allowPositionals: true });
  const benchArgs = positionals.length > 0 ? positionals : ["--quiet", "--arena", "durable_state", "--arena", "tool_use"];
  process.stdout.write(await sandboxCost(Number(values.rounds), benchArgs));
}
