/**
 * The Python host starts without asyncio (arena_host/settle.py): it answers the start and the
 * build without importing it or what comes with it, a plain adapter's legs never import it, and an
 * adapter that is asynchronous in any of the ways the host accepts still runs end to end, every
 * leg of a worker on the one event loop the host made when the first adapter needed it.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isFailure } from "../../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";
import { OUR_CORPUS } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";

const ADAPTERS = path.join(REPO_ROOT, "tests", "hosts", "adapters");
const CONFIG = { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 1, maxToolIterations: 1 };
const workers: WorkerProcess[] = [];

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.kill()));
});

async function start(name: string, file: string): Promise<{ worker: WorkerProcess; scratch: string }> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-py-loop-"));
  const { worker, failure } = await WorkerProcess.start({ id: "w0", adapter: { name, module: path.join(ADAPTERS, file) }, corpusPath: OUR_CORPUS, logFile: path.join(scratch, "worker.log") });
  workers.push(worker);
  expect(failure).toBeUndefined();
  return { worker, scratch };
}

/** Build `arena` on the worker and run one leg; the answer's output_text, parsed. */
async function leg(worker: WorkerProcess, scratch: string, arena: string, input = "x"): Promise<Record<string, unknown>> {
  const built = await worker.build({ arena: { id: arena, tools: [], systemPrompt: "s", durable: false }, config: CONFIG, tag: arena });
  expect(isFailure(built) ? built.message : built.ok).toBe(true);
  const outcome = await worker.run(arena, { id: `i-${arena}`, input, resume_with: "", checkpointDir: scratch }, 30_000);
  if (isFailure(outcome) || outcome.kind !== "result") throw new Error(JSON.stringify(outcome));
  return JSON.parse(outcome.result.output_text) as Record<string, unknown>;
}

describe("the Python host without asyncio", () => {
  it("answers the start and the build, and runs a plain adapter's leg, with no asyncio, ssl, concurrent.futures or logging imported", async () => {
    const { worker, scratch } = await start("modules_report_py", "modules_report.py");
    expect(await leg(worker, scratch, "a")).toEqual({ at_load: [], after_build: [] });
  });

  it("runs an async adapter end to end, each way it may be async, on one loop for the worker's life", async () => {
    const { worker, scratch } = await start("coroutines_py", "coroutines.py");
    // First a plain run() returning a coroutine: nothing at build says a loop is needed, so the first leg makes it.
    const plain = await leg(worker, scratch, "plain_run", "one");
    expect(plain).toMatchObject({ input: "one", asyncio_at_load: false });
    const later = [await leg(worker, scratch, "async_run", "two"), await leg(worker, scratch, "async_build", "three")];
    expect(later.map((r) => r.input)).toEqual(["two", "three"]);
    for (const r of later) expect(r.loop).toBe(plain.loop);
  });

  it("makes the loop at build for an async def run() when the adapter never imported asyncio", async () => {
    const { worker, scratch } = await start("coroutines_py", "coroutines.py");
    const first = await leg(worker, scratch, "async_run", "one");
    const second = await leg(worker, scratch, "async_run", "two");
    expect([first.asyncio_at_load, first.input, second.input]).toEqual([false, "one", "two"]);
    expect(second.loop).toBe(first.loop);
  });
});
