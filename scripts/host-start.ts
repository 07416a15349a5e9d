/**
 * One cold worker start (spawn → ready → built, scripts/support/measure.ts) on each host: the
 * Node host with the baseline `vanilla`, the Python host with its stdlib test adapter
 * (tests/hosts/adapters/one_call.py), beside the bare interpreters (`node -e 0`, `python3 -c
 * pass`) so the host's own share shows. The vanilla start is timed twice: with an empty compile
 * cache (after an install) and with the one the harness prepares for a run's workers; beside them,
 * the floors under a Node worker: a process that opens the IPC channel and says so, with the
 * `node:http` client loaded (what vanilla needs) or the fetch client (what every framework's SDK
 * needs). The sandbox's cost is scripts/sandbox-cost.ts.
 *
 *   node scripts/host-start.ts [--runs N] [--python-adapters] [--node-adapters] [--only TEXT]
 *
 * Wall is reported by phase (spawn → ready, ready → built). CPU is the whole process tree's, read
 * from a cpuacct group the process is forked into (scripts/support/cgroup.ts: rusage misses a
 * worker killed inside bubblewrap); it needs root and cgroup v1, and without them only wall is
 * reported (said on stderr).
 *
 * `--python-adapters` adds every Python adapter of the catalogue: its worker's cold start, beside
 * two floors: the same interpreter loading only the adapter module (its framework's imports
 * included, through the host's own loader, with no host and no protocol), and the interpreter
 * importing only what the adapter's own files import from outside the repository (its framework's
 * modules and the standard library's, found by reading the files, lazy imports included, so the
 * floor is if anything high): issue 23's "python3 -c pass + its framework's import". The default
 * rows have the same floor for one_call.py.
 * `--node-adapters` does the same for the TypeScript ones: each worker's start beside `node`
 * importing only the adapter's framework packages (the catalogue's `packages`).
 *
 * Runs alternate between all of them, so drift in the machine's load falls on all alike.
 * `--only TEXT` (repeatable) keeps the rows whose name contains one of them (`--only python`: the
 * Python host's rows; `--python-adapters --only "python3 -c" --only one_call --only vanilla-py`).
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { parseArgs } from "node:util";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";
import { ADAPTER_CATALOG, findAdapter } from "../contract/catalogue.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { PYTHON_HOST_ROOT, pythonExecutable, pythonHostEnv } from "../orchestrator/supervisor/python-host.ts";
import { cpuSecondsOf, forkInGroup, hierarchyOf, makeGroup, removeGroup } from "./support/cgroup.ts";
import { loadAverage } from "./support/timed-run.ts";
import { coldStart, FETCH_CLIENT, frameworkImportScript, HTTP_CLIENT, median, type CpuGroup, type StartTimes } from "./support/measure.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "7" }, "python-adapters": { type: "boolean", default: false }, "node-adapters": { type: "boolean", default: false }, only: { type: "string", multiple: true } },
});
const RUNS = Number(values.runs);
const ONE_CALL = fileURLToPath(new URL("../tests/hosts/adapters/one_call.py", import.meta.url));
const REPO = fileURLToPath(new URL("..", import.meta.url));
const arena = { id: "tool_use", tools: ["search", "calculator"], systemPrompt: "Answer.", durable: false };

let made = 0;
const cpu: CpuGroup | undefined = (() => {
  try {
    hierarchyOf("cpuacct");
    return {
      make: () => makeGroup("cpuacct", `arena-host-start-${process.pid}-${(made += 1)}`),
      fork: forkInGroup,
      readMs: (g) => cpuSecondsOf(g) * 1000,
      remove: removeGroup,
    };
  } catch (err) {
    process.stderr.write(`CPU not counted: ${(err as Error).message}\n`);
    return undefined;
  }
})();

/** A plain command's start to exit, in its own group when CPU is counted. */
async function bare(file: string, args: string[], options: Options = {}): Promise<StartTimes> {
  const group = cpu?.make();
  try {
    const t0 = performance.now();
    const run = () => execa(file, args, options);
    await (group !== undefined ? cpu!.fork(group, run) : run());
    const totalMs = performance.now() - t0;
    return { readyMs: totalMs, builtMs: 0, totalMs, ...(group !== undefined ? { cpuMs: cpu!.readMs(group) } : {}) };
  } finally {
    if (group !== undefined) cpu!.remove(group);
  }
}

/** A Node process with the IPC channel open that has loaded `client` and says so: the floor under a worker that needs it. */
const ipcFloor = (client: string) =>
  bare(process.execPath, ["--input-type=module", "-e", `${client}; process.send('ready', () => process.exit(0));`], { ipc: true });

const vanilla = { name: "vanilla", module: findAdapter("vanilla")!.module };
const start = (adapter: { name: string; module: string }, runCache = false) => () =>
  coldStart({ adapter, arena, corpusPath: DEFAULT_CORPUS_PATH, model: "m", runCache, ...(cpu ? { cpu } : {}) });
/** The same start from the host's sources instead of the adapter's bundle (orchestrator/supervisor/worker-entry.ts). */
const fromSources = (f: () => Promise<StartTimes>) => async () => {
  process.env.ARENA_WORKER_BUNDLE = "off";
  try {
    return await f();
  } finally {
    delete process.env.ARENA_WORKER_BUNDLE;
  }
};

/** The modules Python `files` import, but the repository's (arena_host, arena_tools, relative imports). */
function pythonImportsOf(files: readonly string[]): string[] {
  const read = [
    "import ast, json, sys",
    "names = set()",
    "for f in sys.argv[1:]:",
    "    for n in ast.walk(ast.parse(open(f, encoding='utf-8').read())):",
    "        if isinstance(n, ast.Import): names.update(a.name for a in n.names)",
    "        elif isinstance(n, ast.ImportFrom) and n.level == 0: names.add(n.module)",
    "print(json.dumps(sorted(n for n in names if n.split('.')[0] not in ('arena_host', 'arena_tools', '__future__'))))",
  ].join("\n");
  const out = spawnSync(pythonExecutable(), ["-c", read, ...files], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`reading the imports of ${files.join(", ")}: ${out.stderr}`);
  return JSON.parse(out.stdout) as string[];
}
/** An adapter's own files: every module in its folder (a variant's siblings included, which can only raise the floor). */
const pythonFilesOf = (module: string) => readdirSync(path.dirname(module)).filter((f) => f.endsWith(".py")).map((f) => path.join(path.dirname(module), f));
/** The interpreter as a worker runs it, importing `modules` and nothing else: an adapter's floor. */
const pythonImportFloor = (modules: readonly string[]) => () =>
  bare(pythonExecutable(), ["-s", "-B", "-c", `import importlib\nfor m in ${JSON.stringify(modules)}: importlib.import_module(m)`], {
    env: pythonHostEnv({ PATH: process.env.PATH }),
    extendEnv: false,
    cwd: PYTHON_HOST_ROOT,
  });

const ways: Record<string, () => Promise<StartTimes>> = {
  "bare node -e 0": () => bare(process.execPath, ["-e", "0"]),
  "node + IPC + node:http (floor)": () => ipcFloor(HTTP_CLIENT),
  "node + IPC + fetch (floor)": () => ipcFloor(FETCH_CLIENT),
  "node host, vanilla": start(vanilla),
  "node host, vanilla, as in a run": start(vanilla, true),
  "node host, vanilla, sources, as in a run": fromSources(start(vanilla, true)),
  "bare python3 -c pass": () => bare(pythonExecutable(), ["-c", "pass"]),
  "python + one_call.py's imports (floor)": pythonImportFloor(pythonImportsOf([ONE_CALL])),
  "python host, one_call.py": start({ name: "one_call_py", module: ONE_CALL }),
};
if (values["node-adapters"]) {
  for (const e of ADAPTER_CATALOG.filter((x) => x.runtime === "node" && x.arenas === undefined && x.packages.length > 0)) {
    ways[`node host, ${e.name}, as in a run`] = start({ name: e.name, module: e.module }, true);
    ways[`node host, ${e.name}, sources, as in a run`] = fromSources(start({ name: e.name, module: e.module }, true));
    const imports = frameworkImportScript(e.packages);
    ways[`node + IPC + import only, ${e.name}`] = () =>
      bare(process.execPath, ["--input-type=module", "-e", `${imports}; process.send('ready', () => process.exit(0));`], { ipc: true, cwd: REPO });
  }
}
if (values["python-adapters"]) {
  for (const e of ADAPTER_CATALOG.filter((x) => x.runtime === "python" && x.arenas === undefined)) {
    ways[`python host, ${e.name}`] = start({ name: e.name, module: e.module });
    const load = `from arena_host import loader; loader.load(${JSON.stringify(e.module)})`;
    ways[`python + loader.load only, ${e.name}`] = () =>
      bare(pythonExecutable(), ["-s", "-B", "-c", load], { env: pythonHostEnv({ PATH: process.env.PATH }), extendEnv: false, cwd: PYTHON_HOST_ROOT });
    ways[`python + its imports only, ${e.name}`] = pythonImportFloor(pythonImportsOf(pythonFilesOf(e.module)));
  }
}

const only = values.only ?? [];
if (only.length > 0) for (const k of Object.keys(ways)) if (!only.some((o) => k.includes(o))) delete ways[k];
const times: Record<string, StartTimes[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
process.stdout.write(`${RUNS} alternating runs, load average ${loadAverage()} at the start, ${new Date().toISOString()}\n`);
for (let i = 0; i < RUNS; i += 1) for (const [k, f] of Object.entries(ways)) times[k]!.push(await f());
const ms = (xs: readonly (number | undefined)[]) => (xs.some((x) => x === undefined) ? "—" : median(xs as number[]).toFixed(0));
process.stdout.write(`${"start".padEnd(44)} ${"wall".padStart(6)} ${"min".padStart(5)} ${"max".padStart(5)} ${"ready".padStart(6)} ${"built".padStart(6)} ${"CPU".padStart(6)}   (ms, medians)\n`);
for (const [k, xs] of Object.entries(times)) {
  const total = xs.map((x) => x.totalMs);
  const cols = [ms(total), Math.min(...total).toFixed(0), Math.max(...total).toFixed(0), ms(xs.map((x) => x.readyMs)), ms(xs.map((x) => x.builtMs)), ms(xs.map((x) => x.cpuMs))];
  process.stdout.write(`${k.padEnd(44)} ${cols[0]!.padStart(6)} ${cols[1]!.padStart(5)} ${cols[2]!.padStart(5)} ${cols[3]!.padStart(6)} ${cols[4]!.padStart(6)} ${cols[5]!.padStart(6)}\n`);
}
process.stdout.write(`load average ${loadAverage()} at the end\n`);
