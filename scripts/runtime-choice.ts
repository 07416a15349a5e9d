/**
 * The runtime choice (issue 11): workers run `.ts` on Node 24's own type stripping, with no
 * loader. The project was specified with `tsx`; this measures one worker start both ways —
 * spawn → ready → built, for the baseline and for a framework adapter — so the choice rests on
 * figures taken on the machine at hand, in the same run.
 *
 *   npm i --prefix /tmp/tsx tsx@4.21.0     # tsx is not a dependency of the project
 *   node scripts/runtime-choice.ts --tsx /tmp/tsx/node_modules/tsx/dist/esm/index.mjs [--runs N]
 *
 * Runs alternate between the two ways, so drift in the machine's load falls on both alike.
 * Each start uses its own empty compile cache (a cold start, as after an install).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { findAdapter } from "../contract/catalogue.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { COLD_START_ARENA, coldStartMs, median } from "./support/measure.ts";

const { values } = parseArgs({ options: { tsx: { type: "string" }, runs: { type: "string", default: "7" } } });
if (!values.tsx) {
  process.stderr.write("runtime-choice: --tsx PATH (tsx's ESM loader, e.g. …/tsx/dist/esm/index.mjs) is required\n");
  process.exit(2);
}
const RUNS = Number(values.runs);
const LOADER = pathToFileURL(path.resolve(values.tsx)).href;

function startOnce(adapterName: string, loader: string | undefined): Promise<number> {
  const adapter = findAdapter(adapterName)!;
  return coldStartMs({
    adapter: { name: adapter.name, module: adapter.module },
    arena: COLD_START_ARENA,
    corpusPath: DEFAULT_CORPUS_PATH,
    model: "m",
    ...(loader ? { env: { NODE_OPTIONS: `--import ${loader}` } } : {}),
  });
}

for (const name of ["vanilla", "langgraph"]) {
  const native: number[] = [];
  const tsx: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    native.push(await startOnce(name, undefined));
    tsx.push(await startOnce(name, LOADER));
  }
  process.stdout.write(
    `${name}: type stripping ${median(native).toFixed(0)} ms, tsx ${median(tsx).toFixed(0)} ms (median of ${RUNS} cold starts each)\n`,
  );
}
