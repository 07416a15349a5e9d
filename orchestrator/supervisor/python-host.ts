/**
 * How the Python worker host is started: the interpreter, its flags and its environment. The
 * rest of a worker's life (IPC, deadlines, kill escalation, warm spares, the durable restart,
 * the sandbox) is the same code as for the Node host.
 *
 * - The interpreter is `ARENA_PYTHON`, else the project's virtual environment (`.venv/`, made by
 *   `pnpm setup:python` from the hashed lock) when it exists, else `python3` on PATH; resolved
 *   once per process to its executable (`sys.executable`): a version-manager shim (pyenv) is a
 *   shell script that would cost every start a few processes, and could not run sealed. A venv's
 *   `bin/python` is kept as it is, not followed to its base: the path is what makes it the venv.
 * - `-s` (no user site-packages: nothing from the user's home joins the worker), `-B` (no
 *   bytecode written: in a sealed worker the tree is read-only, and a write would be a stray
 *   one), `-u` (unbuffered: a worker killed at a pause still leaves its last log lines).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const PYTHON_HOST_ROOT = fileURLToPath(new URL("../../workers/python", import.meta.url));
/** The project's Python environment: the frameworks' pinned packages, bound read-only into a sealed worker. */
export const PYTHON_VENV = fileURLToPath(new URL("../../.venv", import.meta.url));
const VENV_PYTHON = `${PYTHON_VENV}/bin/python`;
// -P: `-m` would put the working directory first on the import path, before the standard library
// (Python 3.11, which the project requires; a test holds it to that).
const FLAGS = ["-s", "-B", "-P", "-u", "-m", "arena_host"];

let resolved: string | undefined;

/** The interpreter's real path; on failure the configured name, so the start fails with its own error. */
export function pythonExecutable(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const name = env.ARENA_PYTHON?.trim() || (existsSync(VENV_PYTHON) ? VENV_PYTHON : "python3");
  if (resolved === undefined) {
    const probe = spawnSync(name, ["-c", "import sys; print(sys.executable)"], { encoding: "utf8", timeout: 10_000 });
    const found = probe.status === 0 ? probe.stdout.trim() : "";
    resolved = found !== "" ? found : name;
  }
  return resolved;
}

/** The host's argument list after the interpreter. */
export function pythonHostArgs(): string[] {
  return [...FLAGS];
}

/** The variables the host needs on top of the worker's environment: `workers/python` is the whole import path beyond the standard library (a caller's PYTHONPATH is replaced, not extended). */
export function pythonHostEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, PYTHONPATH: PYTHON_HOST_ROOT, PYTHONDONTWRITEBYTECODE: "1", PYTHONNOUSERSITE: "1" };
  // A caller's interpreter settings would make the worker another Python than the one resolved.
  delete out.PYTHONHOME;
  delete out.PYTHONSTARTUP;
  return out;
}
