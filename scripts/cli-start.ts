/**
 * What `arena` costs before and around its work: the same commands started from the CLI's bundle
 * and from the sources (`ARENA_CLI_BUNDLE=off`), alternating, each in a cpuacct cgroup of its own (the
 * whole tree: a one-item run's worker too), beside the floor taken in the same run, a bare
 * `node -e 0`. Medians of the rounds; the load average is printed with them. `--tree DIR` adds
 * another checkout's CLI, from its bundle, to the same alternation (a before/after in one run).
 *
 * One unmeasured run of each command comes first: the first command after a build writes the
 * bundle's code cache (orchestrator/cli/bundle/load.mjs), which no later command pays.
 *
 * Usage: node scripts/cli-start.ts [--rounds N] [--tree DIR]…
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

/** The commands, as arguments after the CLI's bin.mjs (the floor runs no CLI). */
const COMMANDS: readonly { readonly label: string; readonly args: readonly string[] | "floor" }[] = [
  { label: "node -e 0 (the floor)", args: "floor" },
  { label: "arena --version", args: ["--version"] },
  { label: "arena list", args: ["list"] },
  { label: "arena run, one vanilla item (tool_use tu-01)", args: ["run", "--quiet", "--framework", "vanilla", "--arena", "tool_use", "--item", "tu-01"] },
];

interface Variant {
  readonly label: string;
  readonly tree: string;
  readonly env: Record<string, string>;
}

async function once(variant: Variant, args: readonly string[] | "floor", tag: string): Promise<{ wall: number; cpu: number }> {
  const argv = args === "floor" ? ["-e", "0"] : [path.join(variant.tree, "orchestrator/cli/bin.mjs"), ...args];
  const run = await timedNode(argv, { cwd: variant.tree, tag: `cli-start-${tag}`, env: variant.env });
  if (run.exitCode !== 0) throw new Error(`${argv.join(" ")} in ${variant.tree} exited ${run.exitCode}`);
  return { wall: run.wallSeconds, cpu: run.cpuSeconds };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: "string" }, tree: { type: "string", multiple: true } } });
  const rounds = Number(values.rounds ?? 5);
  // A stale bundle would be rebuilt inside the first measured command: build it before.
  if (!freshBundle()) await buildCliBundle();
  const variants: readonly Variant[] = [
    { label: "bundle", tree: REPO, env: {} },
    { label: "sources", tree: REPO, env: { ARENA_CLI_BUNDLE: "off" } },
    ...(values.tree ?? []).map((tree) => ({ label: `bundle, ${tree}`, tree: path.resolve(tree), env: {} })),
  ];
  // Unmeasured: another tree's stale bundle is rebuilt here, and each bundle's code cache written.
  for (const variant of variants) for (const command of COMMANDS) if (command.args !== "floor") await once(variant, command.args, "warm-up");
  process.stdout.write(`${os.availableParallelism()} cores; load average at start ${loadAverage()}; ${rounds} rounds, medians\n\n`);
  process.stdout.write("| command | from | wall (ms) | tree CPU (ms) |\n|---|---|--:|--:|\n");
  for (const [c, command] of COMMANDS.entries()) {
    const isFloor = command.args === "floor";
    const samples = new Map<string, { wall: number[]; cpu: number[] }>();
    for (let round = 0; round < rounds; round++) {
      for (const [v, variant] of (isFloor ? variants.slice(0, 1) : variants).entries()) {
        const s = await once(variant, command.args, `${c}-${round}-${v}`);
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
