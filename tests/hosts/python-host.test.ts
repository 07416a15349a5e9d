/**
 * Which host an adapter runs on, and the Python host started the wrong way.
 */
import net from "node:net";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { runtimeOf } from "../../contract/runtime.ts";
import { PYTHON_HOST_ROOT, pythonExecutable, pythonHostArgs } from "../../orchestrator/supervisor/python-host.ts";

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
