/**
 * The project's Python environment, as data: where it lives, what it is built from, and how to
 * tell whether the one on disk is the one the lock describes. Pure apart from reading files, so
 * the decisions of `pnpm setup:python` are unit-tested without building anything.
 *
 * - `.venv/` at the repository root: what orchestrator/supervisor/python-host.ts starts Python
 *   workers with, and what the sandbox binds read-only.
 * - `workers/python/requirements.lock`: every distribution pinned with its hashes (generated from
 *   requirements.in by `pnpm lock:python`); nothing is installed that it does not name.
 * - `workers/python/installer.lock`: uv itself, hashed, installed by pip into a bootstrap venv
 *   under node_modules/.cache (so even the installer comes from a verified download).
 * - `.venv/arena-stamp.json`, written last: the lock's digest, the interpreter and the installer.
 *   A venv without it (a build that died half-way) or with another digest is rebuilt.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export const REPO = path.resolve(import.meta.dirname, "../..");
export const VENV = path.join(REPO, ".venv");
export const STAMP = path.join(VENV, "arena-stamp.json");
export const LOCK = path.join(REPO, "workers/python/requirements.lock");
export const REQUIREMENTS = path.join(REPO, "workers/python/requirements.in");
export const INSTALLER_LOCK = path.join(REPO, "workers/python/installer.lock");
export const INSTALLER_REQUIREMENTS = path.join(REPO, "workers/python/installer.in");
export const UV_HOME = path.join(REPO, "node_modules/.cache/arena-uv");
/** The oldest Python the host and the pinned frameworks run on. */
export const MIN_PYTHON: readonly [number, number] = [3, 11];
/** What a user runs to (re)build the environment; named wherever Python adapters show as not installed. */
export const SETUP_COMMAND = "pnpm setup:python";

export type Installer = "uv" | "pip";

export interface Stamp {
  readonly lock_sha256: string;
  readonly python: string;
  readonly installer: Installer;
}

export interface BasePython {
  readonly executable: string;
  readonly version: readonly [number, number, number];
}

export function lockDigest(file: string = LOCK): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

export function readStamp(file: string = STAMP): Stamp | null {
  if (!existsSync(file)) return null;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Partial<Stamp>;
    return typeof data.lock_sha256 === "string" && typeof data.python === "string" && (data.installer === "uv" || data.installer === "pip")
      ? (data as Stamp)
      : null;
  } catch {
    return null;
  }
}

export function versionText(v: readonly number[]): string {
  return v.join(".");
}

/** `ARENA_PY_INSTALLER` (uv by default: see docs/performance.md for the measured difference). */
export function installerOf(env: Readonly<Record<string, string | undefined>>): Installer | { readonly error: string } {
  const raw = env.ARENA_PY_INSTALLER?.trim() || "uv";
  return raw === "uv" || raw === "pip" ? raw : { error: `ARENA_PY_INSTALLER: expected "uv" or "pip", got ${JSON.stringify(raw)}` };
}

export type Decision =
  | { readonly kind: "no-python"; readonly line: string }
  | { readonly kind: "up-to-date"; readonly line: string }
  | { readonly kind: "build"; readonly reason: string };

/** What setup does, given the base interpreter it found (null: none), the stamp on disk and the lock's digest. */
export function decide(base: BasePython | null, stamp: Stamp | null, digest: string, found: string): Decision {
  if (base === null || base.version[0] < MIN_PYTHON[0] || (base.version[0] === MIN_PYTHON[0] && base.version[1] < MIN_PYTHON[1])) {
    const what = base === null ? `no ${found} found` : `${found} is ${versionText(base.version)}`;
    return {
      kind: "no-python",
      line: `python adapters: not installed (${what}; they need Python ≥ ${versionText(MIN_PYTHON)}): install it, then run \`${SETUP_COMMAND}\``,
    };
  }
  if (stamp !== null && stamp.lock_sha256 === digest && stamp.python === versionText(base.version)) {
    return { kind: "up-to-date", line: `python adapters: .venv matches the lock (Python ${stamp.python}, ${stamp.installer})` };
  }
  const reason = stamp === null ? "no environment yet" : stamp.lock_sha256 !== digest ? "the lock changed" : `Python changed (${stamp.python} → ${versionText(base.version)})`;
  return { kind: "build", reason };
}
