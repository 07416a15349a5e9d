/**
 * One cold worker start (spawn → ready → built, scripts/support/measure.ts) on each host: the
 * Node host with the baseline `vanilla`, the Python host with its stdlib test adapter
 * (tests/hosts/adapters/one_call.py), beside the bare interpreters (`node -e 0`, `python3 -c
 * pass`) so the host's own share shows. The vanilla start is timed twice: with an empty compile
 * cache (after an install) and with the one the harness prepares for a run's workers; beside them,
 * the floors under a Node worker: a process that opens the IPC channel and says so, with the
 * `node:http` client loaded (what vanilla needs) or the fetch client (what every framework's SDK
 * needs), and the first of those with the protocol's zod schemas built and a build message parsed
 * with them, from a script with a code cache as vanilla's worker starts (support/protocol-floor.ts:
 * what every Node worker must do before the host's and the adapter's own code). The sandbox's cost
 * is scripts/sandbox-cost.ts.
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
 * included, through the host's own loader, with no host and no protocol), and issue 23's "python3
 * -c pass + its framework's import": the interpreter importing, in their order, the modules a
 * worker imports for the adapter (support/worker_modules.py builds it once through the host's own
 * code and keeps what was new after the host's imports; the ones that do not import on their own
 * are left out and named after the table). That is the import as the worker does it: lazy imports
 * made while the framework builds its model are in, a variant sibling's are not (the floor read off
 * the files' import statements, before, missed the one and counted the other). The default rows
 * have the same floor for one_call.py. A third row per adapter is the worker without its channel:
 * the interpreter building the adapter through the host's own `Host.build`, with no stdio protocol
 * and no serve loop, so the worker's start less this row is what the channel adds, and this row
 * less the import floor is the framework's build work. The floors end with `os._exit`, as a worker
 * is killed: no interpreter teardown is counted that no start pays.
 * `--node-adapters` does the same for the TypeScript ones: each worker's start beside `node`
 * importing only the adapter's framework packages (the catalogue's `packages`).
 *
 * Runs alternate between all of them, so drift in the machine's load falls on all alike.
 * `--only TEXT` (repeatable) keeps the rows whose name contains one of them (`--only python`: the
 * Python host's rows; `--python-adapters --only "python3 -c" --only one_call --only vanilla-py`).
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";
import { ADAPTER_CATALOG, findAdapter } from "../contract/catalogue.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { PYTHON_HOST_ROOT, pythonExecutable, pythonHostEnv } from "../orchestrator/supervisor/python-host.ts";
import { cpuGroups, hierarchyOf } from "./support/cgroup.ts";
import { loadAverage } from "./support/timed-run.ts";
import { prepareProtocolFloor } from "./support/protocol-floor.ts";
import { COLD_START_ARENA as arena, coldStart, FETCH_CLIENT, frameworkImportScript, HTTP_CLIENT, median, type CpuGroup, type StartTimes } from "./support/measure.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "7" }, "python-adapters": { type: "boolean", default: false }, "node-adapters": { type: "boolean", default: false }, only: { type: "string", multiple: true } },
});
const RUNS = Number(values.runs);
const ONE_CALL = fileURLToPath(new URL("../tests/hosts/adapters/one_call.py", import.meta.url));
const REPO = fileURLToPath(new URL("..", import.meta.url));

const cpu: CpuGroup | undefined = (() => {
  try {
    hierarchyOf("cpuacct");
    return cpuGroups("arena-host-start");
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

/** The IPC floor plus zod checking the protocol, from a script with a code cache (support/protocol-floor.ts): built at its row's first run. */
let protocolFloor: string | undefined;
async function protocolFloorStart(): Promise<StartTimes> {
  protocolFloor ??= await prepareProtocolFloor(arena, DEFAULT_CORPUS_PATH);
  return bare(process.execPath, [protocolFloor], { ipc: true });
}

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

const WORKER_MODULES = fileURLToPath(new URL("./support/worker_modules.py", import.meta.url));
const floorNotes: string[] = [];
/**
 * The modules a worker of the Python adapter `module` imports for it, in their order (see
 * support/worker_modules.py: the host's own and the adapter's own files left out, and those that
 * do not import on their own, which are noted). Found by building the adapter once, unsealed.
 */
function workerModulesOf(name: string, module: string): string[] {
  const out = spawnSync(pythonExecutable(), ["-s", "-B", WORKER_MODULES, module, DEFAULT_CORPUS_PATH], {
    encoding: "utf8",
    env: pythonHostEnv({ PATH: process.env.PATH }),
    cwd: PYTHON_HOST_ROOT,
    maxBuffer: 16 << 20,
  });
  if (out.status !== 0) throw new Error(`listing the modules a worker of ${name} imports: ${out.stderr}`);
  const { modules, skipped } = JSON.parse(out.stdout) as { modules: string[]; skipped: string[] };
  floorNotes.push(`${name}: ${modules.length} modules imported, ${skipped.length} skipped${skipped.length > 0 ? ` (${skipped.join(", ")})` : ""}`);
  return modules;
}
/**
 * How a floor ends: at once, as a measured worker does (it is killed once built). An interpreter
 * that exits normally tears down every module it imported first: ~400 ms of CPU after a framework's
 * ~1,100 modules here (google_adk-py, 1.7 against 2.2 s), which no worker start pays.
 */
const NO_FINALIZE = "import os; os._exit(0)";
/** The interpreter as a worker runs it, importing what a worker of `module` imports for it and nothing else: the adapter's floor. */
function pythonImportFloor(name: string, module: string): () => Promise<StartTimes> {
  let modules: string[] | undefined;
  return () => {
    // Listed at the row's first run, not up front: `--only` may leave the row out.
    modules ??= workerModulesOf(name, module);
    return bare(pythonExecutable(), ["-s", "-B", "-c", `import importlib\nfor m in ${JSON.stringify(modules)}: importlib.import_module(m)\n${NO_FINALIZE}`], {
      env: pythonHostEnv({ PATH: process.env.PATH }),
      extendEnv: false,
      cwd: PYTHON_HOST_ROOT,
    });
  };
}

const ways: Record<string, () => Promise<StartTimes>> = {
  "bare node -e 0": () => bare(process.execPath, ["-e", "0"]),
  "node + IPC + node:http (floor)": () => ipcFloor(HTTP_CLIENT),
  "node + IPC + fetch (floor)": () => ipcFloor(FETCH_CLIENT),
  "node + IPC + node:http + zod protocol (floor)": protocolFloorStart,
  "node host, vanilla": start(vanilla),
  "node host, vanilla, as in a run": start(vanilla, true),
  "node host, vanilla, sources, as in a run": fromSources(start(vanilla, true)),
  "bare python3 -c pass": () => bare(pythonExecutable(), ["-c", "pass"]),
  "python + one_call.py's imports (floor)": pythonImportFloor("one_call.py", ONE_CALL),
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
    const load = `from arena_host import loader; loader.load(${JSON.stringify(e.module)})\n${NO_FINALIZE}`;
    ways[`python + loader.load only, ${e.name}`] = () =>
      bare(pythonExecutable(), ["-s", "-B", "-c", load], { env: pythonHostEnv({ PATH: process.env.PATH }), extendEnv: false, cwd: PYTHON_HOST_ROOT });
    ways[`python + its imports (floor), ${e.name}`] = pythonImportFloor(e.name, e.module);
    ways[`python + the host's build, no channel, ${e.name}`] = () =>
      bare(pythonExecutable(), ["-s", "-B", WORKER_MODULES, e.module, DEFAULT_CORPUS_PATH, "--build-only"], {
        env: pythonHostEnv({ PATH: process.env.PATH }),
        extendEnv: false,
        cwd: PYTHON_HOST_ROOT,
      });
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
if (floorNotes.length > 0) process.stdout.write(`the floors' modules, as a worker imports them after its host's own:\n  ${floorNotes.join("\n  ")}\n`);
process.stdout.write(`load average ${loadAverage()} at the end\n`);
