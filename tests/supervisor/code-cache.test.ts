/**
 * A self-contained worker bundle (the baseline's) is one strict CommonJS script started by
 * workers/bundle-start.cjs with a V8 code cache its build made (orchestrator/supervisor/code-cache.ts).
 * What must hold: the worker behaves as from the sources (strict mode included), the cache made
 * at the build is accepted, a refused or missing cache only costs time and is said in the log,
 * and a bundle made by another Node is rebuilt. No timings are asserted.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { findAdapter } from "../../contract/catalogue.ts";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { CODE_CACHE_FILE } from "../../orchestrator/supervisor/code-cache.ts";
import { BUNDLE_ROOT, prepareWorkerEntry, type WorkerEntry } from "../../orchestrator/supervisor/worker-entry.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";
import { REPO_ROOT } from "../support/reference.ts";

// In checkpoints/, as tests/supervisor/worker-entry.test.ts keeps its throwaway adapters (it says why).
const scratch = mkdtempSync(path.join(REPO_ROOT, "checkpoints", ".code-cache-test-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  for (const d of readdirSync(BUNDLE_ROOT)) if (d.startsWith("cache-scratch-")) rmSync(path.join(BUNDLE_ROOT, d), { recursive: true, force: true });
});

/** An adapter that reports, as its version, whether its code runs in strict mode (ES modules always do). */
function strictnessAdapter(dir: string): { name: string; module: string } {
  mkdirSync(dir, { recursive: true });
  const module = path.join(dir, "index.ts");
  const texts = path.relative(dir, path.join(REPO_ROOT, "contract", "texts.ts"));
  writeFileSync(
    module,
    `import { MAX_ITERATIONS_ERROR } from "${texts}";\n` +
      `const strict = (function (this: unknown) { return this === undefined; })();\n` +
      "export default { name: 'scratch', libVersion: `strict=${strict}`, usesFetch: false, build: () => ({ run: async () => ({ output_text: MAX_ITERATIONS_ERROR }) }) };\n",
  );
  return { name: `cache-scratch-${path.basename(dir)}`, module };
}

async function startAndBuild(adapter: { name: string; module: string }) {
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-code-cache-")), "w.log");
  const { worker, failure } = await WorkerProcess.start({ id: "w0", adapter, corpusPath: path.join(REPO_ROOT, "arenas", "corpus.json"), logFile });
  expect(failure).toBeUndefined();
  const built = await worker.build({
    arena: { id: "tool_use", tools: ["search", "calculator"], systemPrompt: "A.", durable: false },
    config: { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 2 },
    tag: "t",
  });
  await worker.kill();
  return { built, log: readFileSync(logFile, "utf8") };
}

const cacheOf = (e: WorkerEntry) => path.join(path.dirname(e.file), CODE_CACHE_FILE);

describe("a self-contained worker bundle and its code cache", () => {
  it("vanilla: one strict script, its start script and a code cache made by this Node", async () => {
    const entry = await prepareWorkerEntry({ name: "vanilla", module: findAdapter("vanilla")!.module });
    expect(entry).toMatchObject({ bundled: true });
    expect(entry.note).toBeUndefined();
    expect(path.basename(entry.file)).toBe("start.cjs");
    expect(readdirSync(path.dirname(entry.file)).sort()).toEqual(["bundle.cjs", CODE_CACHE_FILE, "start.cjs"]);
    expect(readFileSync(path.join(path.dirname(entry.file), "bundle.cjs"), "utf8").startsWith('"use strict";')).toBe(true);
    const manifest = JSON.parse(readFileSync(path.join(path.dirname(entry.file), "..", "manifest.json"), "utf8"));
    expect(manifest.node).toBe(process.version);
    // The start script is an input: a change to it makes the bundle stale.
    expect(Object.keys(manifest.inputs)).toContain("workers/bundle-start.cjs");
    // Its warm-up ran the item against the stand-in model: a tool call, then the answer.
    expect(manifest.warm_item).toBe("result after 2 model call(s)");
  });

  it("a hostile fixture's bundle gets no code cache: its warm-up would have run its build outside the sandbox", async () => {
    const entry = await prepareWorkerEntry({ name: "fixed-timeout", module: FIXTURES["fixed-timeout"].module });
    expect(entry).toMatchObject({ bundled: true });
    expect(path.basename(entry.file)).toBe("start.cjs");
    expect(readdirSync(path.dirname(entry.file))).not.toContain(CODE_CACHE_FILE);
    expect(entry.note).toMatch(/^no code cache: .*fixture/);
  });

  it("runs the adapter in strict mode, as from the sources, and its cache is accepted (nothing said)", async () => {
    const adapter = strictnessAdapter(path.join(scratch, "a"));
    const entry = await prepareWorkerEntry(adapter);
    expect(entry).toMatchObject({ bundled: true });
    expect(path.basename(entry.file)).toBe("start.cjs");
    const { built, log } = await startAndBuild(adapter);
    expect(built).toMatchObject({ ok: true, libVersion: "strict=true" });
    expect(log).not.toContain("worker start:");
  }, 60_000);

  it("a refused or missing cache: the worker still builds, and its log says it compiled from the text", async () => {
    const adapter = strictnessAdapter(path.join(scratch, "b"));
    const entry = await prepareWorkerEntry(adapter);
    writeFileSync(cacheOf(entry), Buffer.from("not a V8 code cache".repeat(64)));
    const refused = await startAndBuild(adapter);
    expect(refused.built).toMatchObject({ ok: true, libVersion: "strict=true" });
    expect(refused.log).toContain("worker start: the code cache was refused");
    unlinkSync(cacheOf(entry));
    const missing = await startAndBuild(adapter);
    expect(missing.built).toMatchObject({ ok: true, libVersion: "strict=true" });
    expect(missing.log).toContain("worker start: no code cache beside the bundle");
  }, 60_000);

  it("a bundle whose cache another Node made is stale, and is rebuilt with a fresh cache", async () => {
    const adapter = strictnessAdapter(path.join(scratch, "c"));
    const first = await prepareWorkerEntry(adapter);
    const manifestFile = path.join(path.dirname(first.file), "..", "manifest.json");
    writeFileSync(manifestFile, JSON.stringify({ ...JSON.parse(readFileSync(manifestFile, "utf8")), node: "v0.0.0" }));
    vi.resetModules();
    const fresh = (await import("../../orchestrator/supervisor/worker-entry.ts")) as typeof import("../../orchestrator/supervisor/worker-entry.ts");
    expect(fresh.workerEntry(adapter)).toMatchObject({ bundled: false });
    const second = await fresh.prepareWorkerEntry(adapter);
    expect(second).toMatchObject({ bundled: true });
    expect(readdirSync(path.dirname(second.file))).toContain(CODE_CACHE_FILE);
    expect(JSON.parse(readFileSync(manifestFile, "utf8")).node).toBe(process.version);
  }, 60_000);
});
