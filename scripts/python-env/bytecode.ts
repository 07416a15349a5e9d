/**
 * Bytecode for the Python worker host's own code (`workers/python/arena_host`, `arena_tools`) and
 * the catalogue's Python adapters, written next to the sources (`__pycache__/`, git-ignored) by
 * `pnpm setup:python` and so by every `pnpm install`.
 *
 * Why: a worker runs with `-B` in a tree a sealed worker cannot write, so without this every start
 * compiled the host's ~15 modules and its adapter's from source (~12 ms of CPU per start here, more
 * than the rest of the host's own imports); the venv's packages get theirs from the installer
 * (`--compile-bytecode`, setup.ts). The files are checked against their source's hash, not its
 * mtime (`--invalidation-mode checked-hash`): a source edited since is noticed by its content, and
 * that module is compiled in memory at each start, as before, until the next install.
 *
 * Never fails an install: without an interpreter, or when compiling fails, it says so in one line.
 */
import path from "node:path";
import { execa } from "execa";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { PYTHON_HOST_ROOT, pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";

/** The folders whose modules a Python worker imports from this repository. */
export function bytecodeFolders(): string[] {
  const adapters = ADAPTER_CATALOG.filter((e) => e.runtime === "python").map((e) => path.dirname(e.module));
  return [...new Set([path.join(PYTHON_HOST_ROOT, "arena_host"), path.join(PYTHON_HOST_ROOT, "arena_tools"), ...adapters])];
}

/** Compile them with the interpreter workers start with; the line to print. */
export async function writeBytecode(): Promise<string> {
  const python = pythonExecutable();
  const folders = bytecodeFolders();
  try {
    // -s: nothing from the user's site; compileall's own -q keeps the install's output to this one line.
    await execa(python, ["-s", "-m", "compileall", "-q", "--invalidation-mode", "checked-hash", ...folders], { env: { PYTHONNOUSERSITE: "1" } });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; shortMessage?: string };
    const why = (e.stdout || e.stderr || e.shortMessage || String(err)).trim().split("\n").at(-1);
    return `python bytecode: not written (${why}); Python workers compile the host from source at each start`;
  }
  return `python bytecode: current for the host and ${folders.length - 2} adapter folders`;
}

if (import.meta.main) process.stdout.write(`${await writeBytecode()}\n`);
