/**
 * `pydantic_ai`'s durable restart across two OS processes with nothing in common but a JSON file
 * and the checkpoint directory (support/py_leg.py, the Python twin of leg-child.ts): leg 1 of a
 * durable_state item pauses with the message history as its state and writes no file; leg 2, in a
 * fresh interpreter with its own cwd, HOME and TMPDIR, resumes from that JSON alone and finishes;
 * neither writes anywhere else. Each leg has its own mock gateway (the script is stateless).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { PYTHON_HOST_ROOT, pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";
import { findAdapter } from "../../contract/catalogue.ts";
import { namesFor } from "../../contract/tools/registry.ts";
import { OUR_ARENAS, OUR_CORPUS } from "../support/run.ts";
import { usageOf } from "./support/records.ts";

const LEG = fileURLToPath(new URL("./support/py_leg.py", import.meta.url));

async function leg(mode: "run" | "resume", dirs: Record<"root" | "ckpt" | "cwd" | "home" | "tmp", string>) {
  const arena = loadArena(path.join(OUR_ARENAS, "durable_state"));
  const item = arena.items.find((i) => i.id === "dur-01")!;
  const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
  const { baseUrl } = await gateway.start();
  try {
    const job = {
      arena: { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
      config: { model: "mock-model", baseUrl, apiKey: "mock-key", temperature: 0, requestTimeoutS: 30, maxToolIterations: 8 },
      item: { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir: dirs.ckpt },
      corpusPath: OUR_CORPUS,
    };
    const jobFile = path.join(dirs.root, `${mode}.json`);
    writeFileSync(jobFile, JSON.stringify(job));
    // Asynchronously: the gateway answers from this process's event loop.
    const { stdout: out } = await promisify(execFile)(pythonExecutable(), ["-s", "-B", LEG, findAdapter("pydantic_ai")!.module, mode, jobFile, path.join(dirs.root, "state.json")], {
      cwd: dirs.cwd,
      env: { PATH: process.env.PATH, HOME: dirs.home, TMPDIR: dirs.tmp, PYTHONPATH: PYTHON_HOST_ROOT },
      encoding: "utf8",
      timeout: 60_000,
    });
    return { ...JSON.parse(out.trimEnd().split("\n").at(-1)!), served: gateway.recorder.records("").servedUsage };
  } finally {
    await gateway.stop();
  }
}

describe("pydantic_ai: durable across two OS processes (only a JSON file crosses)", () => {
  it("leg 1 pauses with the history as JSON and no file; leg 2 in a fresh process resumes and answers; nothing is written elsewhere", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "pydantic_ai-restart-"));
    const dirs = { root, ckpt: "", cwd: "", home: "", tmp: "" };
    for (const d of ["ckpt", "cwd", "home", "tmp"] as const) mkdirSync((dirs[d] = path.join(root, d)));

    const one = await leg("run", dirs);
    expect([one.result.suspended, one.result.tool_calls.map((c: { name: string }) => c.name)]).toEqual([true, ["search", "search"]]);
    expect(usageOf(one.result)).toEqual(usageOf(one.served));
    expect(Object.keys(one.result.resume_state).sort()).toEqual(["messages", "pause_id", "sibling_ids"]);
    expect(one.files).toEqual({});

    const two = await leg("resume", dirs);
    expect([two.result.error ?? null, two.result.suspended ?? false]).toEqual([null, false]);
    expect(two.result.tool_calls.map((c: { name: string }) => c.name)).toEqual(["calculator"]);
    expect(two.result.output_text).toContain("322");
    expect(usageOf(two.result)).toEqual(usageOf(two.served));
    expect(two.files).toEqual({});
    for (const d of [dirs.cwd, dirs.home, dirs.tmp]) expect(readdirSync(d), d).toEqual([]);
  }, 120_000);
});
