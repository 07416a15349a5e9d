/**
 * `--adapter PATH`: an adapter author's own module (its default export is the Adapter), for
 * `arena run`, `arena bench` and `arena probe`. It is checked here, before anything runs, and
 * named like a catalogue entry: its folder's name for an `index.ts`, else the file's.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { isSafeId } from "../files/safe-path.ts";
import { UsageError } from "./command.ts";

export interface AdapterModule {
  readonly name: string;
  /** Absolute. */
  readonly module: string;
}

export function adapterModuleAt(given: string, cwd: string): AdapterModule {
  const module = path.resolve(cwd, given);
  if (!existsSync(module)) throw new UsageError(`--adapter ${given}: no such file (${module})`);
  if (!statSync(module).isFile()) throw new UsageError(`--adapter ${given}: not a file (${module}); give the module whose default export is the Adapter`);
  const base = path.basename(module).replace(/\.[cm]?[jt]s$/, "");
  const name = base === "index" ? path.basename(path.dirname(module)) : base;
  // The name becomes a folder of the run (logs, checkpoints): it must be a safe one.
  if (!isSafeId(name)) throw new UsageError(`--adapter ${given}: '${name}' is not a usable adapter name (letters, digits, '_', '.', '-')`);
  return { name, module };
}
