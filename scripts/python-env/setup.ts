/**
 * `pnpm setup:python` (also run by `pnpm install`, as its postinstall): builds `.venv/` from the
 * hashed lock, or says in one line why it did not; then writes the host's and the adapters' own
 * bytecode (bytecode.ts). Nothing here fails an install where Python is
 * missing: the Python adapters then show as not installed, with this command. Where a build was
 * attempted and failed, the line names the step and its cause; `ARENA_REQUIRE_PYTHON=1` (CI) makes
 * that, and a missing Python, exit 1.
 *
 *   ARENA_PYTHON_BASE   the interpreter the venv is made from (default python3 on PATH)
 *   ARENA_PY_INSTALLER  uv (default) or pip; both install exactly the lock, hashes required
 */
import { execa } from "execa";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { writeBytecode } from "./bytecode.ts";
import {
  decide,
  INSTALLER_LOCK,
  installerOf,
  LOCK,
  lockDigest,
  readStamp,
  STAMP,
  UV_HOME,
  VENV,
  versionText,
  type BasePython,
  type Installer,
  type Stamp,
} from "./env.ts";

/** Settings of the user's own that would make the build another one than the lock's. */
const QUIET_ENV = {
  PIP_DISABLE_PIP_VERSION_CHECK: "1",
  UV_NO_CONFIG: "1",
  // uv must use the interpreter named, never download one.
  UV_PYTHON_DOWNLOADS: "never",
  PYTHONNOUSERSITE: "1",
};

class StepFailed extends Error {
  constructor(step: string, cause: unknown) {
    super(`${step}: ${lastLine(cause)}`, { cause });
  }
}

function lastLine(err: unknown): string {
  const e = err as { stderr?: unknown; shortMessage?: unknown; message?: unknown };
  const text = typeof e.stderr === "string" && e.stderr.trim() !== "" ? e.stderr : String(e.shortMessage ?? e.message ?? err);
  const lines = text.trim().split("\n").filter((l) => l.trim() !== "");
  return lines.at(-1)?.trim() ?? "failed";
}

async function step(name: string, file: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  try {
    await execa(file, args, { env: { ...QUIET_ENV, ...env }, stdout: "ignore", stderr: "pipe" });
  } catch (err) {
    throw new StepFailed(name, err);
  }
}

export async function basePython(name: string): Promise<BasePython | null> {
  try {
    const { stdout } = await execa(name, ["-c", "import json, sys; print(json.dumps([sys.executable, list(sys.version_info[:3])]))"], { timeout: 20_000 });
    const [executable, version] = JSON.parse(stdout) as [string, [number, number, number]];
    return { executable, version };
  } catch {
    return null;
  }
}

/** uv from its hashed lock, in a venv of its own (kept across builds: only the lock's uv is ever used). */
export async function bootstrapUv(base: BasePython): Promise<string> {
  const uv = path.join(UV_HOME, "bin", "uv");
  const marker = path.join(UV_HOME, "installer.sha256");
  const digest = lockDigest(INSTALLER_LOCK);
  if (existsSync(uv) && existsSync(marker) && readFileSync(marker, "utf8") === digest) return uv;
  rmSync(UV_HOME, { recursive: true, force: true });
  mkdirSync(path.dirname(UV_HOME), { recursive: true });
  await step("create the installer's venv", base.executable, ["-m", "venv", UV_HOME]);
  await step("install uv from installer.lock", path.join(UV_HOME, "bin", "python"), ["-m", "pip", "install", "-q", "--require-hashes", "--no-deps", "-r", INSTALLER_LOCK]);
  writeFileSync(marker, digest);
  return uv;
}

/** Build a venv at `venv` from the lock (`env`: a measurement's own cache folders, say). */
export async function build(base: BasePython, installer: Installer, venv: string = VENV, env: Record<string, string> = {}): Promise<void> {
  rmSync(venv, { recursive: true, force: true });
  const python = path.join(venv, "bin", "python");
  if (installer === "uv") {
    const uv = await bootstrapUv(base);
    await step("create .venv", uv, ["venv", "-q", "--python", base.executable, venv], env);
    // Bytecode now: workers run with -B in a read-only tree, so they can never write it themselves.
    await step("install requirements.lock", uv, ["pip", "sync", "-q", "--require-hashes", "--compile-bytecode", "--python", python, LOCK], env);
  } else {
    await step("create .venv", base.executable, ["-m", "venv", venv], env);
    await step("install requirements.lock", python, ["-m", "pip", "install", "-q", "--require-hashes", "--no-deps", "-r", LOCK], env);
  }
}

export async function duBytes(dir: string): Promise<number | null> {
  try {
    const { stdout } = await execa("du", ["-sk", dir]);
    return Number(stdout.split(/\s/)[0]) * 1024;
  } catch {
    return null;
  }
}

export async function setupPython(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const required = env.ARENA_REQUIRE_PYTHON === "1";
  const installer = installerOf(env);
  if (typeof installer !== "string") {
    process.stderr.write(`python adapters: ${installer.error}\n`);
    return 1;
  }
  const found = env.ARENA_PYTHON_BASE?.trim() || "python3";
  const base = await basePython(found);
  const decision = decide(base, readStamp(), lockDigest(), found);
  if (decision.kind !== "build") {
    process.stdout.write(`${decision.line}\n`);
    // The host's own bytecode follows its sources, not the lock: written at every install.
    if (decision.kind === "up-to-date") process.stdout.write(`${await writeBytecode()}\n`);
    return decision.kind === "no-python" && required ? 1 : 0;
  }
  const started = performance.now();
  try {
    await build(base!, installer);
  } catch (err) {
    rmSync(VENV, { recursive: true, force: true });
    process.stderr.write(`python adapters: not installed (${(err as Error).message}); fix it, then run \`pnpm setup:python\`\n`);
    return required ? 1 : 0;
  }
  const stamp: Stamp = { lock_sha256: lockDigest(), python: versionText(base!.version), installer };
  writeFileSync(STAMP, `${JSON.stringify(stamp, null, 2)}\n`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const bytes = await duBytes(VENV);
  const size = bytes === null ? "" : `, ${(bytes / 2 ** 20).toFixed(0)} MiB`;
  process.stdout.write(`python adapters: .venv built from requirements.lock (${decision.reason}; Python ${stamp.python}, ${installer}, ${seconds} s${size})\n`);
  process.stdout.write(`${await writeBytecode()}\n`);
  return 0;
}

if (import.meta.main) process.exitCode = await setupPython();
