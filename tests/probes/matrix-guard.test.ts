/**
 * The matrix guards (probes.md, rules for the whole suite): the baseline is always in the matrix,
 * and every adapter `ARENA_EXPECT_FRAMEWORKS` names is in the catalogue and builds — a broken
 * install fails here, loudly, instead of silently shrinking the matrix to the baseline. Every
 * catalogued adapter is built once through a real worker process.
 */
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isFailure } from "../../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";
import { OUR_CORPUS, tempDirs } from "../support/run.ts";
import { expectedAdapters, mustBuild } from "../../orchestrator/probes/built.ts";
import { probeAdapters } from "./support.ts";

/** Build one adapter in a real worker; null when it built, else why not. */
async function buildFailure(adapter: { name: string; module: string }): Promise<string | null> {
  const { root } = tempDirs();
  const { worker, failure } = await WorkerProcess.start({
    id: "w0",
    adapter: { name: adapter.name, module: adapter.module },
    corpusPath: OUR_CORPUS,
    logFile: path.join(root, "guard.log"),
  });
  const build = failure ?? (await worker.build({
    arena: { id: "guard", tools: ["search"], systemPrompt: "Answer.", durable: false },
    config: { model: "m", baseUrl: "http://127.0.0.1:9", apiKey: "mock-key", temperature: 0, requestTimeoutS: 5, maxToolIterations: 3 },
    tag: "guard",
  }));
  await worker.stop();
  if (isFailure(build)) return `worker failed: ${build.message}`;
  return build.ok ? null : `${build.kind}: ${build.reason}`;
}

describe("matrix guards", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  it("ARENA_EXPECT_FRAMEWORKS: a name missing from the catalogue fails the suite", () => {
    const saved = process.env.ARENA_EXPECT_FRAMEWORKS;
    try {
      process.env.ARENA_EXPECT_FRAMEWORKS = "vanilla, no_such_framework";
      expect(() => probeAdapters()).toThrow(/not in the catalogue: no_such_framework/);
      expect(mustBuild("no_such_framework")).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.ARENA_EXPECT_FRAMEWORKS;
      else process.env.ARENA_EXPECT_FRAMEWORKS = saved;
    }
  });

  it("a build failure is detected (the guard's own self-test)", async () => {
    const why = await buildFailure({ name: "broken", module: path.join(os.tmpdir(), "no-such-adapter-module.ts") });
    expect(why).toMatch(/^(load_failed|not_installed|build_failed): /);
  }, 300_000);

  describe.concurrent("every catalogued adapter builds (required: the baseline and ARENA_EXPECT_FRAMEWORKS)", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}${mustBuild(adapter.name) ? " (required)" : ""}`, async (ctx) => {
        const why = await buildFailure(adapter);
        if (why !== null && !mustBuild(adapter.name)) ctx.skip(`not required, and not buildable here: ${why}`);
        expect(why, `${adapter.name} is required (${expectedAdapters().join(", ") || "baseline"}) but did not build`).toBeNull();
      }, 300_000);
    }
  });
});
