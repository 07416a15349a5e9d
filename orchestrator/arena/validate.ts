/**
 * `arena validate` for one folder (arena-format.md §7): no network, no adapters. Order:
 * arena.toml (stop when missing or unreadable), dataset, mock script, drift check, and that a
 * cases.json, when there is one, is a regular file.
 */
import path from "node:path";
import type { Diagnostic } from "./diagnostics.ts";
import { displayPath } from "./diagnostics.ts";
import { Findings } from "./findings.ts";
import { optionalFileProblem } from "./text.ts";
import { validateDataset } from "./validate-dataset.ts";
import { validateDrift } from "./validate-drift.ts";
import { validateScript } from "./validate-script.ts";
import { validateToml } from "./validate-toml.ts";

export interface ValidationResult {
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
}

export interface ValidateOptions {
  /** Paths in messages are relative to this (default: the process working directory). */
  readonly cwd?: string;
  /**
   * Check mock_script.json and the drift between it and the dataset (default: true). A live run
   * never reads the mock script, so `arena run --mode live` leaves these out (cli/run-inputs.ts).
   */
  readonly mockScript?: boolean;
}

export function validateArena(dir: string, options: ValidateOptions = {}): ValidationResult {
  const abs = path.resolve(dir);
  const cwd = options.cwd ?? process.cwd();
  const found = new Findings();
  const file = (name: string) => ({ path: path.join(abs, name), findings: found.file(displayPath(path.join(abs, name), cwd)) });

  const toml = file("arena.toml");
  const facts = validateToml(toml.path, path.basename(abs), toml.findings);
  if (facts === undefined) return found;

  const dataset = file("dataset.jsonl");
  const items = validateDataset(dataset.path, dataset.findings);
  if (options.mockScript !== false) {
    const script = file("mock_script.json");
    const scenarios = validateScript(script.path, facts.declared, script.findings);
    if (scenarios !== undefined) validateDrift(items, scenarios, dataset.findings);
  }
  const cases = file("cases.json");
  const problem = optionalFileProblem(cases.path);
  if (problem) cases.findings.error(1, problem);
  return found;
}
