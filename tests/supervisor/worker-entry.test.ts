/**
 * Workers start from a bundle of the host and their adapter (orchestrator/supervisor/worker-entry.ts):
 * one copy of contract/ in it, a framework's npm packages inside it too, rebuilt when an input
 * changes, and the sources — said in the worker's log — where no bundle can be had.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { findAdapter } from "../../contract/catalogue.ts";
import { BUNDLE_ROOT, HOST_SOURCE, prepareWorkerEntry, readBundleSetting, workerEntry, type WorkerEntry } from "../../orchestrator/supervisor/worker-entry.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";
import { CODE_CACHE_FILE } from "../../orchestrator/supervisor/code-cache.ts";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { REPO_ROOT } from "../support/reference.ts";

const ref = (name: string) => ({ name, module: findAdapter(name)!.module });
const bundleText = (e: WorkerEntry) =>
  readdirSync(path.dirname(e.file))
    .filter((f) => f !== CODE_CACHE_FILE)
    .map((f) => readFileSync(path.join(path.dirname(e.file), f), "utf8"))
    .join("\n");
const manifestOf = (e: WorkerEntry) =>
  JSON.parse(readFileSync(path.join(path.dirname(e.file), "..", "manifest.json"), "utf8")) as { inputs: Record<string, string>; node?: string };

/**
 * Throwaway adapters inside the repository (bundles are only made for those), removed after the
 * file: in checkpoints/, which neither the house rules' source walk nor a watched worker's
 * repository snapshot visits, so tests running beside this one never see them.
 */
const scratch = mkdtempSync(path.join(REPO_ROOT, "checkpoints", ".worker-entry-test-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  for (const d of readdirSync(BUNDLE_ROOT)) if (d.startsWith("scratch-")) rmSync(path.join(BUNDLE_ROOT, d), { recursive: true, force: true });
});
afterEach(() => {
  vi.doUnmock("esbuild");
  vi.resetModules();
});

/**
 * A self-contained adapter (it imports nothing but contract/ and `extraImport`), so its bundle is
 * the CommonJS script with a code cache; `buildFirst` is code its build runs before it returns.
 */
function writeAdapter(dir: string, version: string, extraImport = "", buildFirst = ""): { name: string; module: string } {
  mkdirSync(dir, { recursive: true });
  const module = path.join(dir, "index.ts");
  writeFileSync(
    module,
    `${extraImport}import { MAX_ITERATIONS_ERROR } from "${path.relative(dir, path.join(REPO_ROOT, "contract", "texts.ts"))}";\n` +
      `export default { name: "scratch", libVersion: ${JSON.stringify(version)}, usesFetch: false, build: () => { ${buildFirst} return { run: async () => ({ output_text: MAX_ITERATIONS_ERROR }) }; } };\n`,
  );
  return { name: `scratch-${path.basename(dir)}`, module };
}

async function startAndBuild(adapter: { name: string; module: string }) {
  const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-entry-")), "w.log");
  const { worker, failure } = await WorkerProcess.start({ id: "w0", adapter, corpusPath: path.join(REPO_ROOT, "arenas", "corpus.json"), logFile });
  expect(failure).toBeUndefined();
  const built = await worker.build({
    arena: { id: "tool_use", tools: ["calculator"], systemPrompt: "A.", durable: false },
    config: { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 2 },
    tag: "t",
  });
  await worker.kill();
  return { built, log: readFileSync(logFile, "utf8") };
}

describe("the worker's bundled entry", () => {
  it("vanilla: host, contract/, zod and the adapter in one bundle, each module once", async () => {
    const entry = await prepareWorkerEntry(ref("vanilla"));
    expect(entry).toMatchObject({ bundled: true });
    const text = bundleText(entry);
    // One declaration of each (host, contract/, the adapter) across all its files: nothing is evaluated twice.
    // The script is minified: a function is found by the name keepNames gives it back
    // (`f(x,"loadAdapter")`), AgentResultSchema by its first field's zod call.
    const named = (name: string) => new RegExp(`[\\w$]+\\([\\w$]+,"${name}"\\)`, "g");
    for (const declared of [named("loadAdapter"), /\boutput_text:[\w$]+\([\w$]+\(\),""\)/g, named("dispatch"), named("postJson")]) {
      expect(text.match(declared)?.length, String(declared)).toBe(1);
    }
    expect(text).not.toMatch(/from "zod"/);
    const inputs = Object.keys(manifestOf(entry).inputs);
    expect(inputs).toContain("workers/host.ts");
    expect(inputs.some((f) => f.includes("node_modules/.pnpm/zod@"))).toBe(true);
    // The protocol and the corpus check use zod/mini, whose unused parts esbuild leaves out; one
    // import of zod's classic API would bring back all of it (~790 KB, ~25 ms of every start).
    expect(inputs.filter((f) => f.includes("/zod/v4/classic/"))).toEqual([]);
    // The worker → orchestrator schemas are the orchestrator's to parse; the host uses their types only.
    expect(inputs).toContain("contract/protocol.ts");
    expect(inputs).not.toContain("contract/protocol-replies.ts");
  });

  it("a framework adapter: one script with its packages inside (one zod), a native addon's package left where it is installed, a code cache", async () => {
    const entry = await prepareWorkerEntry(ref("langgraph"));
    expect(entry).toMatchObject({ bundled: true });
    expect(entry.note).toBeUndefined();
    expect(readdirSync(path.dirname(entry.file)).sort()).toEqual(["bundle.cjs", CODE_CACHE_FILE, "start.cjs"]);
    const text = readFileSync(path.join(path.dirname(entry.file), "bundle.cjs"), "utf8");
    expect(text).not.toMatch(/require\("(zod|@langchain\/[\w-]+)"\)/);
    // langgraph's SQLite checkpointer loads libsql's addon, found from libsql's own folder.
    expect(text).toMatch(/require\("\/[^"]*\/node_modules\/libsql\/[^"]*"\)/);
    const inputs = Object.keys(manifestOf(entry).inputs);
    // The adapter's zod and the framework's are one install, so one copy in the script.
    expect(new Set(inputs.map((f) => /node_modules\/\.pnpm\/zod@[^/]+/.exec(f)?.[0]).filter(Boolean)).size).toBe(1);
    expect(inputs.some((f) => f.includes("node_modules/.pnpm/@langchain+langgraph@"))).toBe(true);
    expect(inputs.some((f) => /node_modules\/libsql\/index\.js$/.test(f))).toBe(true);
  });

  it("is rebuilt when an input changes, and the worker runs the new code", async () => {
    const adapter = writeAdapter(path.join(scratch, "a"), "v1");
    const first = await prepareWorkerEntry(adapter);
    expect(first).toMatchObject({ bundled: true });
    expect((await startAndBuild(adapter)).built).toMatchObject({ ok: true, libVersion: "v1" });
    writeAdapter(path.join(scratch, "a"), "v2");
    // A fresh orchestrator process (the memo is per process) finds the bundle stale until it is rebuilt.
    vi.resetModules();
    const fresh = (await import("../../orchestrator/supervisor/worker-entry.ts")) as typeof import("../../orchestrator/supervisor/worker-entry.ts");
    expect(fresh.workerEntry(adapter)).toMatchObject({ bundled: false, file: HOST_SOURCE });
    const second = await fresh.prepareWorkerEntry(adapter);
    expect(second).toMatchObject({ bundled: true });
    expect(second.file).not.toBe(first.file);
    const { WorkerProcess: Fresh } = await import("../../orchestrator/supervisor/worker-process.ts");
    const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-entry-")), "w.log");
    const { worker } = await Fresh.start({ id: "w1", adapter, corpusPath: path.join(REPO_ROOT, "arenas", "corpus.json"), logFile });
    const built = await worker.build({
      arena: { id: "tool_use", tools: ["calculator"], systemPrompt: "A.", durable: false },
      config: { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 2 },
      tag: "t",
    });
    await worker.kill();
    expect(built).toMatchObject({ ok: true, libVersion: "v2" });
  }, 60_000);

  it("a shared input edited between two adapters' checks makes the second one's bundle stale (the fingerprints' memo is keyed by the file's stat)", async () => {
    const shared = path.join(scratch, "shared.ts");
    writeFileSync(shared, `(globalThis as Record<string, unknown>).scratchShared = "1";\n`);
    const a = writeAdapter(path.join(scratch, "sa"), "v1", `import "../shared.ts";\n`);
    const b = writeAdapter(path.join(scratch, "sb"), "v1", `import "../shared.ts";\n`);
    expect(await prepareWorkerEntry(a)).toMatchObject({ bundled: true });
    expect(await prepareWorkerEntry(b)).toMatchObject({ bundled: true });
    vi.resetModules();
    const fresh = (await import("../../orchestrator/supervisor/worker-entry.ts")) as typeof import("../../orchestrator/supervisor/worker-entry.ts");
    // a's check fingerprints shared.ts; b's, after the edit, must not take that print for the file's.
    expect(fresh.workerEntry(a)).toMatchObject({ bundled: true });
    writeFileSync(shared, `(globalThis as Record<string, unknown>).scratchShared = "22";\n`);
    expect(fresh.workerEntry(b)).toMatchObject({ bundled: false, file: HOST_SOURCE });
  }, 60_000);

  it("a framework package that is not installed is still a not_installed build failure, not a failed start", async () => {
    const adapter = writeAdapter(path.join(scratch, "b"), "v1", 'import "agentic-arena-no-such-framework";\n');
    expect(await prepareWorkerEntry(adapter)).toMatchObject({ bundled: true });
    expect((await startAndBuild(adapter)).built).toMatchObject({ ok: false, kind: "not_installed" });
  }, 60_000);

  it("an adapter esbuild cannot make one script of (top-level await) gets ES modules, and the bundle's note says why", async () => {
    const adapter = writeAdapter(path.join(scratch, "d"), "v1", "await Promise.resolve();\n");
    const entry = await prepareWorkerEntry(adapter);
    expect(entry).toMatchObject({ bundled: true });
    expect(path.basename(entry.file)).toBe("host.mjs");
    expect(entry.note).toMatch(/^no code cache: ES modules, as one script could not be built \(Top-level await/);
    expect((await startAndBuild(adapter)).built).toMatchObject({ ok: true, libVersion: "v1" });
  }, 60_000);

  it("a framework's script whose warm-up build fails is replaced by ES modules, and the note says why", async () => {
    // Stands for a package that works where it is installed but not inside the script (one that
    // reads its own files from __dirname, say): p-queue puts an npm package inside the script.
    const adapter = writeAdapter(
      path.join(scratch, "e"),
      "v1",
      'import PQueue from "p-queue";\n',
      'if (typeof PQueue !== "function" || /bundle\\.cjs/.test(String(new Error().stack))) throw new Error("not from a script");',
    );
    const entry = await prepareWorkerEntry(adapter);
    expect(entry).toMatchObject({ bundled: true });
    expect(path.basename(entry.file)).toBe("host.mjs");
    expect(entry.note).toMatch(/^no code cache: ES modules, as its one script's warm-up build failed \(build_failed: .*not from a script/);
    expect((await startAndBuild(adapter)).built).toMatchObject({ ok: true, libVersion: "v1" });
  }, 90_000);

  it.runIf(detectBwrap().ok)("the code cache's warm-up build runs sealed: a write outside its folders and a connection both fail there", async () => {
    // The probe's targets, writable and reachable from here: the seal is what stops the warm-up.
    const outside = mkdtempSync(path.join(os.tmpdir(), "arena-warm-probe-"));
    const server = net.createServer((socket) => socket.end()).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const port = (server.address() as net.AddressInfo).port;
    let connections = 0;
    server.on("connection", () => (connections += 1));
    // Its build tries both and goes on either way; nothing but the warm-up builds it in this test.
    const adapter = writeAdapter(
      path.join(scratch, "f"),
      "v1",
      'import { writeFileSync } from "node:fs";\nimport net from "node:net";\n',
      `try { writeFileSync(${JSON.stringify(path.join(outside, "written"))}, "x"); } catch {} net.connect(${port}, "127.0.0.1").on("error", () => {});`,
    );
    try {
      const entry = await prepareWorkerEntry(adapter);
      expect(readdirSync(path.dirname(entry.file))).toContain(CODE_CACHE_FILE);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(readdirSync(outside)).toEqual([]);
      expect(connections).toBe(0);
      // The control: the same write from outside the seal lands.
      writeFileSync(path.join(outside, "written"), "x");
      expect(readdirSync(outside)).toEqual(["written"]);
    } finally {
      server.close();
      rmSync(outside, { recursive: true, force: true });
    }
  }, 90_000);

  it("an adapter outside the repository starts from the sources, and its log says so", async () => {
    const adapter = writeAdapter(mkdtempSync(path.join(os.tmpdir(), "arena-outside-")), "v1");
    // Outside the repository its relative import of contract/ would not resolve: point it at the real file.
    writeFileSync(adapter.module, readFileSync(adapter.module, "utf8").replace(/from "[^"]*texts\.ts"/, `from ${JSON.stringify(path.join(REPO_ROOT, "contract", "texts.ts"))}`));
    expect(workerEntry(adapter)).toMatchObject({ bundled: false, note: "the adapter lives outside the repository" });
    const { built, log } = await startAndBuild(adapter);
    expect(built).toMatchObject({ ok: true, libVersion: "v1" });
    expect(log).toContain("worker started from the sources, not a bundle: the adapter lives outside the repository");
  }, 60_000);

  it("without esbuild, workers start from the sources and their log says why", async () => {
    const adapter = writeAdapter(path.join(scratch, "c"), "v1");
    vi.resetModules();
    vi.doMock("esbuild", () => {
      throw new Error("Cannot find package 'esbuild'");
    });
    const fresh = (await import("../../orchestrator/supervisor/worker-entry.ts")) as typeof import("../../orchestrator/supervisor/worker-entry.ts");
    const entry = await fresh.prepareWorkerEntry(adapter);
    expect(entry).toMatchObject({ bundled: false, file: HOST_SOURCE });
    expect(entry.note).toMatch(/^the bundle could not be built: /);
  });

  it("ARENA_WORKER_BUNDLE=off starts from the sources; a value that is not on or off is refused", () => {
    expect(workerEntry(ref("vanilla"), { ARENA_WORKER_BUNDLE: "off" })).toMatchObject({ bundled: false, note: "ARENA_WORKER_BUNDLE=off" });
    expect([readBundleSetting({}), readBundleSetting({ ARENA_WORKER_BUNDLE: " On " }), readBundleSetting({ ARENA_WORKER_BUNDLE: "off" })]).toEqual(["on", "on", "off"]);
    expect(() => readBundleSetting({ ARENA_WORKER_BUNDLE: "no" })).toThrow(/ARENA_WORKER_BUNDLE/);
  });
});
