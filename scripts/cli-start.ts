/**
 * What `arena` costs before and around its work: the same commands started from the CLI's bundle
 * and from the sources (`ARENA_CLI_BUNDLE=off`), alternating, each in a cpuacct cgroup of its own (the
 * whole tree: a one-item run's worker too), beside the floor taken in the same run, a bare
 * `node -e 0`. Medians of the rounds; the load average is printed with them.
 *
 * Usage: node scripts/cli-start.ts [--rounds N]
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadAverage, timedNode } from "./support/timed-run.ts";
import { median } from "./support/measure.ts";
import { freshBundle } from "../orchestrator/cli/bundle/fresh.mjs";
import { buildCliBundle } from "../orchestrator/cli/bundle/build.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(REPO, "orchestrator/cli/bin.mjs");

const COMMANDS: readonly { readonly label: string; readonly argv: readonly string[] }[] = [
  { label: "node -e 0 (the floor)", argv: ["-e", "0"] },
  { label: "arena --version", argv: [BIN, "--version"] },
  { label: "arena list", argv: [BIN, "list"] },
  { label: "arena run, one vanilla item (tool_use tu-01)", argv: [BIN, "run", "--quiet", "--framework", "vanilla", "--arena", "tool_use", "--item", "tu-01"] },
];

async function once(argv: readonly string[], env: Record<string, string>, tag: string): Promise<{ wall: number; cpu: number }> {
  const run = await timedNode(argv, { cwd: REPO, tag: `cli-start-${tag}`, env });
  if (run.exitCode !== 0) throw new Error(`${argv.join(" ")} exited ${run.exitCode}`);
  return { wall: run.wallSeconds, cpu: run.cpuSeconds };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: "string" } } });
  const rounds = Number(values.rounds ?? 5);
  // A stale bundle would be rebuilt inside the first measured command: build it before.
  if (!freshBundle()) await buildCliBundle();
  const variants: readonly { readonly label: string; readonly env: Record<string, string> }[] = [
    { label: "bundle", env: {} },
    { label: "sources", env: { ARENA_CLI_BUNDLE: "off" } },
  ];
  process.stdout.write(`${os.availableParallelism()} cores; load average at start ${loadAverage()}; ${rounds} rounds, medians\n\n`);
  process.stdout.write("| command | from | wall (ms) | tree CPU (ms) |\n|---|---|--:|--:|\n");
  for (const [c, command] of COMMANDS.entries()) {
    const isFloor = command.argv[0] === "-e";
    const samples = new Map<string, { wall: number[]; cpu: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const [v, variant] of (isFloor ? variants.slice(0, 1) : variants).entries()) {
        const s = await once(command.argv, variant.env, `${c}-${round}-${v}`);
        const into = samples.get(variant.label) ?? { wall: [], cpu: [] };
        into.wall.push(s.wall);
        into.cpu.push(s.cpu);
        samples.set(variant.label, into);
      }
    }
    for (const [label, s] of samples) {
      process.stdout.write(`| ${command.label} | ${isFloor ? "—" : label} | ${(median(s.wall) * 1000).toFixed(0)} | ${(median(s.cpu) * 1000).toFixed(0)} |\n`);
    }
  }
  process.stdout.write(`\nload average at end ${loadAverage()}\n`);
}

await main();
