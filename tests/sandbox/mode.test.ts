/**
 * The pure parts of worker isolation: the ARENA_SANDBOX value, the level it gives with or without
 * a working bwrap, the bwrap command line, which gateways can be sealed behind the bridge, which
 * caller-supplied paths become writable, and the `ps -E` parser of the watcher (macOS).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../orchestrator/config/values.ts";
import { loopbackPorts, socketsFit } from "../../orchestrator/supervisor/sandbox/bridge.ts";
import { bwrapArgs, within } from "../../orchestrator/supervisor/sandbox/bwrap.ts";
import { callerDirs, inheritedNodeOptions } from "../../orchestrator/supervisor/sandbox/index.ts";
import { readSandboxMode, resolveLevel, selfTestFailure, selfTestScript } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { parsePs, TOKEN_VAR } from "../../orchestrator/supervisor/sandbox/survivors.ts";

const BWRAP = { ok: true as const, bwrap: { path: "/usr/bin/bwrap", version: "bubblewrap 0.8.0" } };
const NO_BWRAP = { ok: false as const, reason: "bwrap is not installed (Debian package bubblewrap)" };

describe("ARENA_SANDBOX", () => {
  it("defaults to auto and accepts off, bwrap, auto in any case with blanks", () => {
    expect(readSandboxMode({})).toBe("auto");
    expect(readSandboxMode({ ARENA_SANDBOX: "" })).toBe("auto");
    expect(readSandboxMode({ ARENA_SANDBOX: " OFF " })).toBe("off");
    expect(readSandboxMode({ ARENA_SANDBOX: "bwrap" })).toBe("bwrap");
  });

  it("refuses anything else with a ConfigError naming the variable", () => {
    for (const bad of ["on", "true", "1", "sandbox", "bwrap,off"]) {
      const err = (() => {
        try {
          readSandboxMode({ ARENA_SANDBOX: bad });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).variable).toBe("ARENA_SANDBOX");
      expect((err as ConfigError).message).toBe(`ARENA_SANDBOX: '${bad}' is not auto, bwrap or off`);
    }
  });

  it("auto seals when bwrap works and falls back to watching, with the reason, when it does not", () => {
    expect(resolveLevel("auto", () => BWRAP)).toEqual({ level: "sandbox", bwrap: BWRAP.bwrap });
    expect(resolveLevel("auto", () => NO_BWRAP)).toEqual({ level: "watched", reason: NO_BWRAP.reason });
  });

  it("off watches without looking for bwrap; bwrap without a working one is a ConfigError", () => {
    expect(resolveLevel("off", () => { throw new Error("must not probe"); })).toEqual({ level: "watched", reason: "ARENA_SANDBOX=off" });
    expect(() => resolveLevel("bwrap", () => NO_BWRAP)).toThrow(/^ARENA_SANDBOX: bwrap was asked for, but bwrap is not installed/);
  });
});

describe("bwrap's self-test", () => {
  it("its script exits 3 where the probe file takes a write, and otherwise answers with the Node binary's version", () => {
    const run = (probe: string) => spawnSync("/bin/sh", ["-c", selfTestScript(probe), process.execPath], { encoding: "utf8" });
    const writable = run(path.join(mkdtempSync(path.join(os.tmpdir(), "arena-self-test-")), "probe"));
    expect(writable.status).toBe(3);
    // A folder that does not exist refuses the write, as the read-only root does inside the sandbox.
    const refused = run("/nonexistent-arena-folder/probe");
    expect([refused.status, refused.stdout.trim()]).toEqual([0, process.version]);
  });

  it("names why the sandbox does not work: a writable root, bwrap's own error, another Node", () => {
    expect(selfTestFailure(0, `${process.version}\n`, "")).toBeUndefined();
    expect(selfTestFailure(3, "", "")).toBe("the root took a write inside the sandbox");
    expect(selfTestFailure(1, "", "bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted\nmore")).toBe("bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted");
    expect(selfTestFailure(0, "v20.19.0\n", "", "v24.21.0")).toBe('the Node binary answered "v20.19.0" inside the sandbox, not v24.21.0');
  });
});

describe("the bwrap command line", () => {
  it("binds the root read-only, unshares pid (and net when sealed), binds writable dirs outermost first", () => {
    const args = bwrapArgs({ writable: ["/tmp/a/b", "/tmp/a", "/tmp/a"], cwd: "/repo", sealNetwork: true, maskRun: true });
    expect(args.slice(0, 3)).toEqual(["--ro-bind", "/", "/"]);
    for (const flag of ["--unshare-pid", "--die-with-parent", "--unshare-net"]) expect(args).toContain(flag);
    const binds = args.flatMap((a, i) => (a === "--bind" ? [args[i + 1]] : []));
    expect(binds).toEqual(["/tmp/a", "/tmp/a/b"]);
    expect(args.join(" ")).toContain("--tmpfs /run --remount-ro /run");
    expect(args.slice(-2)).toEqual(["--chdir", "/repo"]);
  });

  it("shares the network and leaves /run alone when asked to", () => {
    const args = bwrapArgs({ writable: [], cwd: "/", sealNetwork: false, maskRun: false });
    expect(args).not.toContain("--unshare-net");
    expect(args).not.toContain("/run");
  });

  it("within() is by path segment, not by string prefix", () => {
    expect(within("/tmp/ab", "/tmp/a")).toBe(false);
    expect(within("/tmp/a/b", "/tmp/a")).toBe(true);
    expect(within("/tmp/a", "/tmp/a")).toBe(true);
    expect(within("/anything", "/")).toBe(true);
  });
});

describe("sealing the network", () => {
  it("takes the ports of loopback http gateways", () => {
    expect(loopbackPorts(["http://127.0.0.1:4100/t/x/v1", "http://127.0.0.1:4101/v1", "http://127.0.0.1/v1"])).toEqual({ ok: true, ports: [4100, 4101, 80] });
  });

  it("cannot seal a remote provider, https, or a name that could resolve elsewhere", () => {
    expect(loopbackPorts(["https://api.openai.com/v1"])).toEqual({ ok: false, reason: "the gateway https://api.openai.com is not on loopback" });
    expect(loopbackPorts(["http://localhost:4100/v1"]).ok).toBe(false);
    expect(loopbackPorts(["not a url"]).ok).toBe(false);
  });

  it("the bridge's Unix sockets must fit Linux's path limit", () => {
    expect(socketsFit("/tmp")).toBe(true);
    expect(socketsFit(`/tmp/${"x".repeat(80)}`)).toBe(false);
  });
});

describe("caller-supplied locations", () => {
  it("directories strictly inside the temp root become writable; a file's directory too; nothing else", () => {
    const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-sbx-unit-"));
    writeFileSync(path.join(scratch, "log.jsonl"), "");
    // An existing file outside the temp root. The repo's own package.json is one only when the
    // clone is not itself under the temp dir (a CI checkout in /tmp is): then another is taken.
    const tmp = path.resolve(os.tmpdir());
    const outside = [path.resolve("package.json"), process.execPath, "/etc/hostname", "/etc/passwd"].find(
      (f) => existsSync(f) && !within(path.dirname(f), tmp),
    );
    expect(outside, "no file outside the temp root to try").toBeDefined();
    const dirs = callerDirs(scratch, {
      TAP_LOG: path.join(scratch, "log.jsonl"),
      NOT_YET: path.join(scratch, "later.jsonl"),
      OUTSIDE_FILE: outside!,
      TMP_ROOT: os.tmpdir(),
      ROOT: "/",
      WORD: "hello",
    });
    expect(dirs).toEqual([scratch]);
    expect(callerDirs(undefined, {})).toEqual([]);
  });
});

describe("helpers", () => {
  it("workers inherit node flags as execaNode would pass them (no --inspect, no -e code)", () => {
    expect(inheritedNodeOptions(["--no-warnings", "--inspect=9229", "-e", "code", "--conditions=x"])).toEqual(["--no-warnings", "--conditions=x"]);
  });

  it("reads `ps -E` lines: the token must be a whole word of the environment", () => {
    const out = [
      `  101   101 sleep 300 PATH=/bin ${TOKEN_VAR}=abc HOME=/h`,
      `  102   102 sleep 300 PATH=/bin ${TOKEN_VAR}=abcd`,
      `  103    99 node x.js`,
    ].join("\n");
    expect(parsePs(out, `${TOKEN_VAR}=abc`)).toEqual([{ pid: 101, pgid: 101, command: "sleep 300 PATH=/bin" }]);
  });
});
