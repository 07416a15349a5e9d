/**
 * Which isolation a run's workers get, decided once per orchestrator process:
 *
 * - `ARENA_SANDBOX=auto` (the default): sealed in bubblewrap when it is installed and passes a
 *   one-time self-test on this machine, watched otherwise.
 * - `ARENA_SANDBOX=bwrap`: sealed, or refuse to run (a ConfigError: the machine cannot honour it).
 * - `ARENA_SANDBOX=off`: watched — no sandbox, but survivors are killed and writes outside the
 *   worker's own directories are recorded (watch.ts).
 *
 * The self-test runs the exact sandbox shape a worker gets (read-only root, own PID and network
 * namespaces, loopback) around the Node binary the workers use, so "installed but broken" (no
 * user namespaces, a seccomp profile that forbids them) falls back instead of failing every worker.
 * It is paid by every command that runs items, so it starts no JavaScript: bwrap itself brings
 * loopback up in the new network namespace and exits non-zero when it cannot (the bridge's
 * listeners need nothing more), a shell tries the write, and `node --version` answers before V8
 * starts: 20 ms wall against 72 ms for the `node -e` script it replaced (docs/performance.md,
 * "A self-test that starts no JavaScript").
 */
import { accessSync, constants } from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ConfigError, quoted } from "../../config/values.ts";

export const SANDBOX_MODES = ["auto", "bwrap", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** `ARENA_SANDBOX`, trimmed and lower-cased; empty or unset means `auto`. */
export function readSandboxMode(env: Readonly<Record<string, string | undefined>>): SandboxMode {
  const raw = env.ARENA_SANDBOX?.trim().toLowerCase() ?? "";
  if (raw === "") return "auto";
  if ((SANDBOX_MODES as readonly string[]).includes(raw)) return raw as SandboxMode;
  throw new ConfigError("ARENA_SANDBOX", `${quoted(env.ARENA_SANDBOX!)} is not auto, bwrap or off`);
}

/** bubblewrap, found and working. */
export interface Bwrap {
  readonly path: string;
  /** `bubblewrap 0.8.0`, as `bwrap --version` prints it. */
  readonly version: string;
}

export type Detection = { readonly ok: true; readonly bwrap: Bwrap } | { readonly ok: false; readonly reason: string };

/** The first executable `name` on PATH. */
export function onPath(name: string, envPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The flags every sandbox starts with; the self-test uses exactly these. */
export const BASE_FLAGS = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-ipc", "--die-with-parent"];

/**
 * What the self-test runs inside the sandbox, as `sh -c <script> <node>`: exit 3 when `probeFile`
 * (on the read-only root) takes a write, else the Node binary's version (selfTestFailure).
 */
export function selfTestScript(probeFile = "/.arena-sandbox-probe"): string {
  return `if (: > '${probeFile}') 2>/dev/null; then exit 3; fi; exec "$0" --version`;
}

let detected: Detection | undefined;

/** bwrap on this machine, tested once per process (~30 ms wall, `bwrap --version` included). */
export function detectBwrap(): Detection {
  detected ??= probe();
  return detected;
}

function probe(): Detection {
  if (process.platform !== "linux") return { ok: false, reason: `bubblewrap is Linux-only (this is ${process.platform})` };
  const bin = onPath("bwrap");
  if (!bin) return { ok: false, reason: "bwrap is not installed (Debian package bubblewrap)" };
  const version = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 5_000 });
  if (version.status !== 0) return { ok: false, reason: `bwrap --version failed: ${(version.stderr || version.error?.message || "").trim()}` };
  const test = spawnSync(bin, [...BASE_FLAGS, "--unshare-net", "--", "/bin/sh", "-c", selfTestScript(), process.execPath], {
    encoding: "utf8",
    timeout: 10_000,
    env: { PATH: process.env.PATH ?? "" },
  });
  const failed = selfTestFailure(test.status, test.stdout, test.stderr || test.error?.message || `exit ${test.status ?? test.signal}`);
  if (failed !== undefined) return { ok: false, reason: `bwrap self-test failed: ${failed}` };
  return { ok: true, bwrap: { path: bin, version: version.stdout.trim() } };
}

/** Why the self-test's exit and output say the sandbox does not work, or undefined when it does. */
export function selfTestFailure(status: number | null, stdout: string, error: string, version: string = process.version): string | undefined {
  if (status === 3) return "the root took a write inside the sandbox";
  if (status !== 0) return error.trim().split("\n")[0];
  if (stdout.trim() !== version) return `the Node binary answered ${JSON.stringify(stdout.trim().slice(0, 40))} inside the sandbox, not ${version}`;
  return undefined;
}

export type Level =
  | { readonly level: "sandbox"; readonly bwrap: Bwrap }
  | { readonly level: "watched"; readonly reason: string };

/** What `mode` gives on this machine; `bwrap` without a working bwrap is a ConfigError. */
export function resolveLevel(mode: SandboxMode, detect: () => Detection = detectBwrap): Level {
  if (mode === "off") return { level: "watched", reason: "ARENA_SANDBOX=off" };
  const found = detect();
  if (found.ok) return { level: "sandbox", bwrap: found.bwrap };
  if (mode === "bwrap") throw new ConfigError("ARENA_SANDBOX", `bwrap was asked for, but ${found.reason}`);
  return { level: "watched", reason: found.reason };
}
