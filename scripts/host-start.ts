/**
 * One cold worker start (spawn → ready → built, scripts/support/measure.ts) on each host: the
 * Node host with the baseline `vanilla`, the Python host with its stdlib test adapter
 * (tests/hosts/adapters/one_call.py), beside the bare interpreters (`node -e 0`, `python3 -c
 * pass`) so the host's own share shows. The vanilla start is timed twice: with an empty compile
 * cache (after an install) and with the one the harness prepares for a run's workers; beside them,
 * the floor under any Node worker, a process that opens the IPC channel and loads the fetch client,
 * as the host must before it says ready. The sandbox's cost is scripts/sandbox-cost.ts.
 *
 *   node scripts/host-start.ts [--runs N]
 *
 * `--python-adapters` adds every Python adapter of the catalogue: its worker's cold start, beside
 * the same interpreter loading only the adapter module (its framework's imports included, through
 * the host's own loader, with no host and no protocol), so what the host adds to an import shows.
 *
 * Runs alternate between all of them, so drift in the machine's load falls on all alike.
 */
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { ADAPTER_CATALOG, findAdapter } from "../contract/catalogue.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { PYTHON_HOST_ROOT, pythonExecutable, pythonHostEnv } from "../orchestrator/supervisor/python-host.ts";
import { coldStartMs, median } from "./support/measure.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" }, "python-adapters": { type: "boolean", default: false } } });
const RUNS = Number(values.runs);
const ONE_CALL = fileURLToPath(new URL("../tests/hosts/adapters/one_call.py", import.meta.url));
const arena = { id: "tool_use", tools: ["search", "calculator"], systemPrompt: "Answer.", durable: false };

async function bare(file: string, args: string[]): Promise<number> {
  const t0 = performance.now();
  await execa(file, args);
  return performance.now() - t0;
}

/**
 * The floor under any Node worker: a process with the IPC channel open that has loaded the fetch
 * client (the host does both before it says ready, so no first request pays for them) and says so.
 */
async function ipcFetchFloor(): Promise<number> {
  const t0 = performance.now();
  const child = execa(process.execPath, ["--input-type=module", "-e", "void globalThis.fetch; new Request('http://127.0.0.1/'); process.send('ready', () => process.exit(0));"], { ipc: true });
  await child;
  return performance.now() - t0;
}

const vanilla = { name: "vanilla", module: findAdapter("vanilla")!.module };

const ways: Record<string, () => Promise<number>> = {
  "node host, vanilla": () => coldStartMs({ adapter: vanilla, arena, corpusPath: DEFAULT_CORPUS_PATH, model: "m" }),
  "node host, vanilla, as in a run": () => coldStartMs({ adapter: vanilla, arena, corpusPath: DEFAULT_CORPUS_PATH, model: "m", runCache: true }),
  "node + IPC + fetch loaded (floor)": ipcFetchFloor,
  "python host, one_call.py": () => coldStartMs({ adapter: { name: "one_call_py", module: ONE_CALL }, arena, corpusPath: DEFAULT_CORPUS_PATH, model: "m" }),
  "bare node -e 0": () => bare(process.execPath, ["-e", "0"]),
  "bare python3 -c pass": () => bare(pythonExecutable(), ["-c", "pass"]),
};
if (values["python-adapters"]) {
  for (const e of ADAPTER_CATALOG.filter((x) => x.runtime === "python" && x.arenas === undefined)) {
    ways[`python host, ${e.name}`] = () => coldStartMs({ adapter: { name: e.name, module: e.module }, arena, corpusPath: DEFAULT_CORPUS_PATH, model: "m" });
    const load = `from arena_host import loader; loader.load(${JSON.stringify(e.module)})`;
    ways[`import only, ${e.name}`] = async () => {
      const t0 = performance.now();
      await execa(pythonExecutable(), ["-s", "-B", "-c", load], { env: pythonHostEnv({ PATH: process.env.PATH }), extendEnv: false, cwd: PYTHON_HOST_ROOT });
      return performance.now() - t0;
    };
  }
}
const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
for (let i = 0; i < RUNS; i += 1) for (const [k, f] of Object.entries(ways)) times[k]!.push(await f());
for (const [k, xs] of Object.entries(times)) process.stdout.write(`${k.padEnd(34)} median ${median(xs).toFixed(0)} ms over ${RUNS} (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})\n`);
