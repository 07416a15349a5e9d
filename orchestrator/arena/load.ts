/**
 * Loads an arena folder into an {@link Arena}. Strict about shape (what the harness needs to
 * run), lenient about what only the validator judges (duplicate ids, unmatched items, unknown
 * tool names): `arena validate` is where data quality is enforced, and `arena run` applies it
 * too before anything runs (cli/run-inputs.ts); the probes load their own fixtures with this alone.
 */
import path from "node:path";
import { collapseWhitespace, DATA_MAX_DEPTH, parsePyJsonWithLines, PyJsonError, pyStr, pyTypeName, type PyDict } from "@agentic-arena/py-semantics";
import { datasetLineOf, datasetLines } from "./dataset.ts";
import { ArenaLoadError, displayPath } from "./diagnostics.ts";
import { unsafeIdProblem } from "./ids.ts";
import { ArenaTomlSchema, ItemSchema, type Arena, type ArenaToml, type Item, type MockScript } from "./schemas.ts";
import { mustBeObject, normaliseScript } from "./script-shape.ts";
import { optionalFileProblem, readArenaText, type LineCounter } from "./text.ts";
import { parseToml, TomlLines, tomlTypeName } from "./toml.ts";
import { tomlTypeProblems } from "./toml-fields.ts";
import { pyTruthy } from "@agentic-arena/py-semantics";

export interface LoadOptions {
  /** Paths in error messages are relative to this (default: the process working directory). */
  readonly cwd?: string;
}

export function loadArena(dir: string, options: LoadOptions = {}): Arena {
  const abs = path.resolve(dir);
  const cwd = options.cwd ?? process.cwd();
  const shown = (name: string) => displayPath(path.join(abs, name), cwd);

  const toml = loadToml(path.join(abs, "arena.toml"), shown("arena.toml"));
  const items = loadItems(path.join(abs, "dataset.jsonl"), shown("dataset.jsonl"));
  const script = loadScript(path.join(abs, "mock_script.json"), shown("mock_script.json"));
  const cases = optionalFileProblem(path.join(abs, "cases.json"));
  if (cases) throw new ArenaLoadError(shown("cases.json"), 1, "", cases);
  return {
    id: toml.id,
    dir: abs,
    description: toml.description,
    declaredTools: toml.tools,
    systemPromptIntent: toml.system_prompt_intent,
    systemPrompt: collapseWhitespace(toml.system_prompt_intent),
    durable: toml.durable,
    items,
    script,
  };
}

function readOrThrow(file: string, shown: string, lineOf?: LineCounter): string {
  const read = readArenaText(file, lineOf);
  if (read.kind === "missing") throw new ArenaLoadError(shown, 1, "", `missing ${path.basename(file)}`);
  if (read.kind === "invalid") throw new ArenaLoadError(shown, read.line, "", read.reason);
  return read.text;
}

function loadToml(file: string, shown: string): ArenaToml {
  const text = readOrThrow(file, shown);
  const parsed = parseToml(text);
  if (!parsed.ok) throw new ArenaLoadError(shown, parsed.line, "", `invalid TOML (${parsed.reason})`);
  const { table } = parsed;
  const lines = new TomlLines(text);
  const id = table["id"];
  if (id === undefined) throw new ArenaLoadError(shown, 1, "", "missing 'id'");
  if (typeof id !== "string") throw new ArenaLoadError(shown, lines.key("id"), "", `'id' must be a string, got ${tomlTypeName(id)}`);
  const unsafe = unsafeIdProblem(id);
  if (unsafe) throw new ArenaLoadError(shown, lines.key("id"), "", unsafe);
  const problem = tomlTypeProblems(table)[0];
  if (problem) throw new ArenaLoadError(shown, lines.key(problem.key), "", problem.text);
  const tools = (table["tools"] ?? []) as unknown[];
  const bad = tools.find((t) => typeof t !== "string");
  if (bad !== undefined) throw new ArenaLoadError(shown, lines.key("tools"), "", `'tools' must be a list of strings, got an element of type ${tomlTypeName(bad)}`);
  const result = ArenaTomlSchema.safeParse(table);
  if (!result.success) {
    // Unreachable after the checks above; kept so a schema change cannot surface as a crash.
    const issue = result.error.issues[0];
    const key = String(issue?.path[0] ?? "");
    throw new ArenaLoadError(shown, lines.key(key), "", `'${key}': ${issue?.message ?? "invalid"}`);
  }
  return result.data;
}

function loadItems(file: string, shown: string): Item[] {
  const text = readOrThrow(file, shown, datasetLineOf);
  const items: Item[] = [];
  for (const entry of datasetLines(text)) {
    const { line } = entry;
    if (entry.error) throw new ArenaLoadError(shown, line, "", `invalid JSON (${entry.error.reason})`);
    const raw = entry.value;
    if (!(raw instanceof Map)) throw new ArenaLoadError(shown, line, "", `expected a JSON object, got ${pyTypeName(raw)}`);
    items.push(toItem(raw, line, shown));
  }
  // Nothing to run is an input mistake, not a run that trivially passes.
  if (items.length === 0) throw new ArenaLoadError(shown, 1, "", "dataset.jsonl has no items");
  return items;
}

function toItem(raw: PyDict, line: number, shown: string): Item {
  const id = raw.get("id");
  if (!pyTruthy(id)) throw new ArenaLoadError(shown, line, "", "missing 'id'");
  const label = pyStr(id!);
  const unsafe = unsafeIdProblem(label);
  if (unsafe) throw new ArenaLoadError(shown, line, "", unsafe);
  const fail = (field: string, reason: string) => new ArenaLoadError(shown, line, field, reason);
  if (!raw.has("input")) throw fail(label, "missing 'input'");
  const checks = raw.get("checks");
  if (!pyTruthy(checks)) throw fail(label, "has no checks (it can never fail)");
  if (!Array.isArray(checks)) throw fail(label, `'checks' must be a list, got ${pyTypeName(checks!)}`);
  checks.forEach((c, i) => {
    if (!(c instanceof Map)) throw fail(`${label}.checks[${i}]`, mustBeObject(c));
  });
  return ItemSchema.parse({
    id: label,
    input: pyStr(raw.get("input")!),
    checks,
    note: raw.has("note") ? pyStr(raw.get("note")!) : "",
    resume_with: raw.has("resume_with") ? pyStr(raw.get("resume_with")!) : "",
    line,
  });
}

function loadScript(file: string, shown: string): MockScript {
  const text = readOrThrow(file, shown);
  let parsed;
  try {
    parsed = parsePyJsonWithLines(text, { maxDepth: DATA_MAX_DEPTH });
  } catch (err) {
    if (!(err instanceof PyJsonError)) throw err;
    throw new ArenaLoadError(shown, err.line, "", `invalid JSON (${err.reason})`);
  }
  const result = normaliseScript(parsed.value, parsed.lines);
  if ("problem" in result) throw new ArenaLoadError(shown, result.problem.line, result.problem.field, result.problem.text);
  return result.script;
}
