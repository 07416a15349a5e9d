/**
 * `arena validate` for one folder (arena-format.md §7): no network, no adapters. Order:
 * arena.toml (stop when missing or unreadable), dataset, mock script, drift check, and that a
 * cases.json, when there is one, is a regular file.
 */
import path from "node:path";
import type { Diagnostic } from "./diagnostics.ts";
import { displayPath } from "./diagnostics.ts";
import { Report } from "./report.ts";
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
}

export function validateArena(dir: string, options: ValidateOptions = {}): ValidationResult {
  const abs = path.resolve(dir);
  const cwd = options.cwd ?? process.cwd();
  const report = new Report();
  const file = (name: string) => ({ path: path.join(abs, name), report: report.file(displayPath(path.join(abs, name), cwd)) });

  const toml = file("arena.toml");
  const facts = validateToml(toml.path, path.basename(abs), toml.report);
  if (facts === undefined) return report;

  const dataset = file("dataset.jsonl");
  const items = validateDataset(dataset.path, dataset.report);
  const script = file("mock_script.json");
  const scenarios = validateScript(script.path, facts.declared, script.report);
  if (scenarios !== undefined) validateDrift(items, scenarios, dataset.report);
  const cases = file("cases.json");
  const problem = optionalFileProblem(cases.path);
  if (problem) cases.report.error(1, problem);
  return report;
}
