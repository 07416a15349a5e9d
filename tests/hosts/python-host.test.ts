/**
 * Which host an adapter runs on, and the Python host started the wrong way.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { runtimeOf } from "../../contract/runtime.ts";
import { PYTHON_HOST_ROOT, pythonExecutable, pythonHostArgs } from "../../orchestrator/supervisor/python-host.ts";
import { isFailure } from "../../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";
import { OUR_CORPUS } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";

describe("the host runtime", () => {
  it("is python for a .py module and node for anything else", () => {
    expect(runtimeOf({ module: "/x/adapters/vanilla_py/adapter.py" })).toBe("python");
    expect(runtimeOf({ module: "/x/adapters/vanilla/index.ts" })).toBe("node");
    expect(runtimeOf({ module: "/x/adapters/py/index.ts" })).toBe("node");
  });

  it("is recorded on every catalogue entry, read off its module", () => {
    for (const e of ADAPTER_CATALOG) expect(e.runtime).toBe(runtimeOf(e));
  });

  it("resolves the interpreter to a real executable, not a shim", async () => {
    const python = pythonExecutable();
    const { stdout } = await execa(python, ["-c", "import sys; print(sys.executable, sys.version_info >= (3, 11))"]);
    expect(stdout).toBe(`${python} True`);
  });
});

describe("the Python host started without the orchestrator's channel", () => {
  it("says so in one line and exits 64, with no traceback", async () => {
    const r = await execa(pythonExecutable(), pythonHostArgs(), { env: { PYTHONPATH: PYTHON_HOST_ROOT }, extendEnv: false, reject: false });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toBe("arena_host: NODE_CHANNEL_FD is not set: start the host with a JSON IPC channel");
  });

  it("refuses a channel in another serialisation in one line", async () => {
    const r = await execa(pythonExecutable(), pythonHostArgs(), {
      env: { PYTHONPATH: PYTHON_HOST_ROOT, NODE_CHANNEL_FD: "3", NODE_CHANNEL_SERIALIZATION_MODE: "advanced" },
      extendEnv: false,
      reject: false,
    });
    expect(r.exitCode).toBe(64);
    expect(r.stderr).toBe("arena_host: NODE_CHANNEL_SERIALIZATION_MODE is 'advanced'; only 'json' is spoken here");
  });
});

describe("the Python host's sandbox bridge", () => {
  it("a port it cannot listen on fails the start before ready, in one line, exit 70 (as the Node preload)", async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, "127.0.0.1", () => r()));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const r = await execa(pythonExecutable(), pythonHostArgs(), {
        env: { PYTHONPATH: PYTHON_HOST_ROOT, ARENA_SANDBOX_BRIDGE: JSON.stringify([{ port, socket: "/nonexistent.sock" }]) },
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode).toBe(70);
      expect(r.stderr).toMatch(new RegExp(`^sandbox bridge: cannot listen on 127\\.0\\.0\\.1:${port}: \\[Errno 98\\] Address already in use$`));
    } finally {
      taken.close();
    }
  });
});

describe("the Python worker's imports", () => {
  it("never come from its working directory: started in a folder holding a json.py, it still builds", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-py-cwd-"));
    writeFileSync(path.join(scratch, "json.py"), 'raise SystemExit("imported json.py from the working directory")\n');
    const { worker, failure } = await WorkerProcess.start({
      id: "w0",
      adapter: { name: "one_call_py", module: path.join(REPO_ROOT, "tests", "hosts", "adapters", "one_call.py") },
      corpusPath: OUR_CORPUS,
      logFile: path.join(scratch, "worker.log"),
      cwd: scratch,
    });
    try {
      expect(failure?.message).toBeUndefined();
      const config = { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 1, maxToolIterations: 1 };
      const built = await worker.build({ arena: { id: "a", tools: [], systemPrompt: "s", durable: false }, config, tag: "t" });
      expect(isFailure(built) ? built.message : built.ok).toBe(true);
    } finally {
      await worker.kill();
    }
  });
});

describe("the Python worker's environment", () => {
  it("has telemetry off and vendor credentials removed (contract/telemetry.ts), and the channel hidden from the adapter", async () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-py-env-"));
    const { worker, failure } = await WorkerProcess.start({
      id: "w0",
      adapter: { name: "env_report_py", module: path.join(REPO_ROOT, "tests", "hosts", "adapters", "env_report.py") },
      corpusPath: OUR_CORPUS,
      logFile: path.join(scratch, "worker.log"),
      env: { LANGSMITH_API_KEY: "would-phone-home", DO_NOT_TRACK: "0" },
    });
    try {
      expect(failure).toBeUndefined();
      const config = { model: "m", baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 1, maxToolIterations: 1 };
      const built = await worker.build({ arena: { id: "a", tools: [], systemPrompt: "s", durable: false }, config, tag: "t" });
      expect(isFailure(built) ? built.message : built.ok).toBe(true);
      const leg = await worker.run("a", { id: "i", input: "x", resume_with: "", checkpointDir: scratch }, 30_000);
      if (isFailure(leg) || leg.kind === "error") throw new Error(JSON.stringify(leg));
      expect(JSON.parse(leg.result.output_text)).toEqual({
        OTEL_SDK_DISABLED: "true",
        DO_NOT_TRACK: "1",
        OPENAI_AGENTS_DISABLE_TRACING: "1",
        LANGSMITH_API_KEY: null,
        NODE_CHANNEL_FD: null,
        ARENA_SANDBOX_BRIDGE: null,
      });
    } finally {
      await worker.kill();
    }
  });
});
