/**
 * Could a durable restart start from a V8 startup snapshot with its framework already evaluated?
 * (issue 23, target 2b: a restart must start a process that never saw the item, and a framework's
 * restart is now its own worker script compiled from a code cache, 125–470 ms of CPU.)
 *
 * For each TypeScript catalogue adapter whose worker is one self-contained script (bundle-source.ts),
 * the script takes that script's text without its entry (so the host never starts) and:
 *
 * - builds a startup snapshot of it after the adapter's module has been loaded and one runner
 *   built on tool_use (the frameworks import their packages there); `--load-only` stops after the
 *   module (`node --build-snapshot`); a refusal is reported with V8's or Node's first reason;
 * - times, alternating, each in a cpuacct cgroup of its own (the whole tree), `node -e 0`, the same
 *   text started as a worker's script is (workers/bundle-start.cjs beside it, with the V8 code
 *   cache a warm-up wrote), and a process deserialised from the snapshot: both end once the
 *   adapter has built one runner (the snapshot's builder built one too and dropped it, so its
 *   framework's modules arrive evaluated; with `--load-only`, once the module is loaded), so the
 *   difference is what a snapshot would save; beside
 *   them, the whole worker as a run starts it (spawn → ready → built on tool_use, as host-start.ts
 *   times it), for what the rest of a restart costs;
 * - starts two processes from the snapshot and compares their first `crypto.randomUUID()`: Node
 *   keeps its UUID entropy in the heap, so a snapshot whose build drew one hands every process the
 *   same sequence (checkpoint names, thread and run ids would repeat across workers).
 *
 *   node scripts/snapshot-probe.ts [--runs N] [--framework NAME]… [--load-only]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ADAPTER_CATALOG } from "../contract/catalogue.ts";
import { disableTelemetry } from "../contract/telemetry.ts";
import { START_SCRIPT } from "../orchestrator/supervisor/bundle-source.ts";
import { CODE_CACHE_FILE } from "../orchestrator/supervisor/code-cache.ts";
import { prepareWorkerEntry } from "../orchestrator/supervisor/worker-entry.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { cpuGroups } from "./support/cgroup.ts";
import { COLD_START_ARENA, coldStart, coldStartConfig, median } from "./support/measure.ts";
import { loadAverage, timedNode } from "./support/timed-run.ts";

/** Stripped from a refusal's paths. */
const REPO = fileURLToPath(new URL("..", import.meta.url));
/** Where bundle-source.ts ends the shared text and begins the entry that starts the host. */
const ENTRY_MARK = "// <arena-worker-entry>";
const cpu = cpuGroups("arena-snapshot-probe");
const UUID_OF = 'process.stdout.write(require("node:crypto").randomUUID() + "\\n")';

/**
 * The adapter's script without its entry, plus the line that registers the bundled adapter and
 * `build()`: load the adapter's module and build a runner on tool_use as a worker's first build does
 * (the frameworks import their packages there), with a toolbox that answers nothing. Undefined for
 * an ES module bundle.
 */
function frameworkText(bundle: string, loadOnly: boolean): string | undefined {
  const text = readFileSync(bundle, "utf8");
  const mark = text.indexOf(ENTRY_MARK);
  if (mark < 0) return undefined;
  const register = text.slice(mark).split("\n").find((l) => l.startsWith("globalThis["));
  if (register === undefined) return undefined;
  const build = `globalThis.build = async () => { const adapter = (await globalThis[Symbol.for("agentic-arena.bundled-adapter")].load()).default;
  ${loadOnly ? "void adapter;" : `await adapter.build(${JSON.stringify(COLD_START_ARENA)}, ${JSON.stringify(coldStartConfig("m"))}, { tools: { dispatch: () => "" } });`} };`;
  return `${text.slice(0, mark)}${register}\n${build}\n`;
}

/**
 * The snapshot's entry: the text and one `build()`, whose runner is dropped (what stays is the
 * evaluated modules), then a main that calls it again, as a restarted worker must build, and prints
 * a UUID.
 */
const snapshotEntry = (text: string) =>
  `${text}globalThis.build().then(() => require("node:v8").startupSnapshot.setDeserializeMainFunction(() => globalThis.build().then(() => { ${UUID_OF}; })));\n`;

/** The comparator's bundle: the same text and one `build()`, started as a worker's script is (workers/bundle-start.cjs). */
const codeCacheBundle = (text: string) => `${text}globalThis.build().then(() => { ${UUID_OF}; });\n`;

/** The first line of a refused build that says why (V8's fatal check, Node's error, a handle). */
function refusal(output: string): string {
  const lines = output.split("\n").map((l) => l.trim());
  const why = lines.find((l) => /^# (?!Fatal error)\S/.test(l))?.slice(2) ?? lines.find((l) => /^\w*Error: /.test(l)) ?? lines.find((l) => l !== "");
  // V8 prints the object behind an unserialisable handle; its first named property says whose it is.
  const owner = output.match(/global handle not serialized[\s\S]*?\[String\]: #?([\w$]+):/)?.[1];
  return `${(why ?? "no message").replaceAll(REPO, "")}${owner !== undefined ? ` (a handle holding \`${owner}\`)` : ""}`;
}

interface Probe {
  readonly adapter: string;
  readonly refused?: string;
  readonly rows?: Readonly<Record<"floor" | "cache" | "snapshot" | "worker", { readonly cpu: number; readonly wall: number }>>;
  readonly sameUuid?: boolean;
}

async function probe(name: string, module: string, o: { readonly runs: number; readonly loadOnly: boolean; readonly scratch: string }): Promise<Probe> {
  const { runs, scratch } = o;
  const entry = await prepareWorkerEntry({ name, module });
  const bundle = path.join(path.dirname(entry.file), "bundle.cjs");
  const text = entry.bundled && existsSync(bundle) ? frameworkText(bundle, o.loadOnly) : undefined;
  if (text === undefined) return { adapter: name, refused: "its worker is not one script (ES modules or the sources)" };
  // The comparator is the project's own start script beside its bundle, as a built worker entry has it.
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  const runner = path.join(dir, "start.cjs");
  copyFileSync(START_SCRIPT, runner);
  writeFileSync(path.join(dir, "bundle.cjs"), codeCacheBundle(text));
  const entryFile = path.join(scratch, `${name}.snapshot-entry.cjs`);
  const blob = path.join(scratch, `${name}.blob`);
  writeFileSync(entryFile, snapshotEntry(text));
  const built = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", entryFile], { cwd: scratch, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
  if (built.status !== 0) return { adapter: name, refused: refusal(`${built.stdout}\n${built.stderr}`) };
  // The warm-up writes the code cache once the build is done, as code-cache.ts has a worker's made.
  execFileSync(process.execPath, [runner], { env: { ...process.env, ARENA_CODE_CACHE_OUT: path.join(dir, CODE_CACHE_FILE) }, stdio: "ignore" });
  const sameUuid = execFileSync(process.execPath, ["--snapshot-blob", blob], { encoding: "utf8" }) === execFileSync(process.execPath, ["--snapshot-blob", blob], { encoding: "utf8" });
  const variants = { floor: ["-e", "0"], cache: [runner], snapshot: ["--snapshot-blob", blob] } as const;
  const samples = { floor: { cpu: [] as number[], wall: [] as number[] }, cache: { cpu: [] as number[], wall: [] as number[] }, snapshot: { cpu: [] as number[], wall: [] as number[] }, worker: { cpu: [] as number[], wall: [] as number[] } };
  for (let run = 0; run < runs; run++) {
    for (const [label, argv] of Object.entries(variants) as [keyof typeof variants, readonly string[]][]) {
      const t = await timedNode(argv, { cwd: scratch, tag: `snapshot-${name}-${label}-${run}` });
      if (t.exitCode !== 0) throw new Error(`${name}, ${label}: exit ${t.exitCode}: ${t.stderr.slice(-400)}`);
      samples[label].cpu.push(t.cpuSeconds * 1000);
      samples[label].wall.push(t.wallSeconds * 1000);
    }
    const w = await coldStart({ adapter: { name, module }, arena: COLD_START_ARENA, corpusPath: DEFAULT_CORPUS_PATH, model: "m", runCache: true, cpu });
    samples.worker.cpu.push(w.cpuMs ?? Number.NaN);
    samples.worker.wall.push(w.totalMs);
  }
  const rows = Object.fromEntries(Object.entries(samples).map(([k, s]) => [k, { cpu: median(s.cpu), wall: median(s.wall) }])) as Probe["rows"];
  return { adapter: name, rows, sameUuid };
}

async function main(): Promise<void> {
  // As every worker has it: the frameworks built here (and their snapshot builders) phone nowhere,
  // and Mastra reads its bundled provider registry instead of refreshing it.
  disableTelemetry(process.env);
  const { values } = parseArgs({ options: { runs: { type: "string", default: "5" }, framework: { type: "string", multiple: true }, "load-only": { type: "boolean", default: false } } });
  const runs = Number(values.runs);
  const wanted = values.framework;
  const adapters = ADAPTER_CATALOG.filter((e) => e.runtime === "node" && (wanted === undefined || wanted.includes(e.name)) && (wanted !== undefined || !e.name.endsWith("-multi")));
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-snapshot-probe-"));
  process.stdout.write(`${os.availableParallelism()} cores; load average at start ${loadAverage()}; ${runs} alternating runs, medians; ${process.version}; ${new Date().toISOString()}; ${values["load-only"] ? "the module loaded only" : "the module loaded and one runner built"}\n\n`);
  process.stdout.write("| adapter | snapshot | `node -e 0`, CPU / wall (ms) | from the code cache | from the snapshot | the worker, spawn → built | same first UUID in two processes |\n|---|---|--:|--:|--:|--:|---|\n");
  try {
    for (const a of adapters) {
      const p = await probe(a.name, a.module, { runs, loadOnly: values["load-only"], scratch });
      const cell = (r: { cpu: number; wall: number } | undefined) => (r === undefined ? "—" : `${r.cpu.toFixed(0)} / ${r.wall.toFixed(0)}`);
      const made = p.refused === undefined ? "built" : `refused: ${p.refused.replaceAll("|", "\\|")}`;
      process.stdout.write(`| ${p.adapter} | ${made} | ${cell(p.rows?.floor)} | ${cell(p.rows?.cache)} | ${cell(p.rows?.snapshot)} | ${cell(p.rows?.worker)} | ${p.sameUuid === undefined ? "—" : p.sameUuid ? "**yes**" : "no"} |\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`\nload average at end ${loadAverage()}\n`);
}

await main();
