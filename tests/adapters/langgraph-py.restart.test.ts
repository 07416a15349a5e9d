/**
 * `langgraph-py`'s durable restart across two OS processes with nothing in common but a JSON file
 * and the checkpoint directory: leg 1 pauses with a small handle and one SQLite file, leg 2 in a
 * fresh Python process finishes from them, and neither writes to its cwd, HOME or TMPDIR. The
 * legs run the adapter through the host's loader (support/py_leg.py) against this test's
 * mock gateway, which counts what it served. Figures: workers/adapters/langgraph-py/README.md.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findAdapter } from "../../contract/catalogue.ts";
import { namesFor } from "../../contract/tools/registry.ts";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { PYTHON_HOST_ROOT, pythonExecutable, pythonHostEnv } from "../../orchestrator/supervisor/python-host.ts";
import { OUR_ARENAS, OUR_CORPUS } from "../support/run.ts";
import { usageOf } from "./support/records.ts";

const LEG = fileURLToPath(new URL("./support/py_leg.py", import.meta.url));

describe("langgraph-py: durable across two OS processes (only a JSON file and the checkpoint directory cross)", () => {
  it("leg 1 pauses with a ~200-byte handle and one SQLite file; leg 2 in a fresh process finishes; nothing is written elsewhere", async () => {
    const arena = loadArena(path.join(OUR_ARENAS, "durable_state"));
    const item = arena.items.find((i) => i.id === "dur-01")!;
    const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
    const { baseUrl } = await gateway.start();
    const root = mkdtempSync(path.join(os.tmpdir(), "langgraph-py-restart-"));
    const [ckpt, cwd, home, tmp] = ["ckpt", "cwd", "home", "tmp"].map((d) => path.join(root, d)) as [string, string, string, string];
    for (const d of [ckpt, cwd, home, tmp]) mkdirSync(d);
    const job = path.join(root, "job.json");
    writeFileSync(job, JSON.stringify({
      arena: { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
      config: { model: "mock-model", baseUrl, apiKey: "mock-key", temperature: 0, requestTimeoutS: 30, maxToolIterations: 8 },
      item: { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir: ckpt },
      corpusPath: OUR_CORPUS,
    }));
    const served = () => usageOf(gateway.recorder.records("").servedUsage);
    // Asynchronous: the gateway answers on this process's event loop while the leg runs.
    const leg = async (mode: "run" | "resume") => {
      const { stdout: out } = await promisify(execFile)(pythonExecutable(), ["-s", "-B", LEG, findAdapter("langgraph-py")!.module, mode, job, path.join(root, "state.json")], {
        cwd,
        env: pythonHostEnv({ PATH: process.env.PATH, HOME: home, TMPDIR: tmp, PYTHONPATH: PYTHON_HOST_ROOT }),
        encoding: "utf8",
        timeout: 90_000,
      });
      return JSON.parse(out.trimEnd().split("\n").at(-1)!);
    };
    try {
      const one = await leg("run");
      const servedOne = served();
      expect(one.result.suspended).toBe(true);
      expect(one.result.tool_calls.map((c: { name: string }) => c.name)).toEqual(["search", "search"]);
      expect(usageOf(one.result)).toEqual(servedOne);
      expect(Object.keys(one.result.resume_state).sort()).toEqual(["checkpoint_file", "checkpoint_id", "thread_id"]);
      expect(one.stateBytes).toBeGreaterThan(150);
      expect(one.stateBytes).toBeLessThan(250);
      // One database, no -wal / -shm beside it.
      expect(Object.keys(one.files)).toEqual([one.result.resume_state.checkpoint_file]);

      const two = await leg("resume");
      expect(two.result.error ?? null).toBeNull();
      expect(two.result.suspended ?? false).toBe(false);
      expect(two.result.tool_calls.map((c: { name: string }) => c.name)).toEqual(["calculator"]);
      expect(two.result.output_text).toContain("322");
      const total = served();
      expect(usageOf(two.result)).toEqual(total.map((n, i) => n - servedOne[i]!));
      expect(Object.keys(two.files)).toEqual(Object.keys(one.files));
      expect(two.files[Object.keys(one.files)[0]!]).toBeGreaterThan(one.files[Object.keys(one.files)[0]!]);
      for (const d of [cwd, home, tmp]) expect(readdirSync(d), d).toEqual([]);
    } finally {
      await gateway.stop();
    }
  }, 200_000);
});
