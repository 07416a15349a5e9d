/** arena.toml rules of the validator (arena-format.md §2, §7). */
import { isBlank, pyRepr } from "@agentic-arena/py-semantics";
import { TOOL_NAMES } from "../../contract/tools/registry.ts";
import { unsafeIdProblem } from "./ids.ts";
import type { FileFindings } from "./findings.ts";
import { readArenaText } from "./text.ts";
import { parseToml, TomlLines, tomlToPy } from "./toml.ts";
import { tomlTypeProblems } from "./toml-fields.ts";

export interface TomlFacts {
  /** The string entries of `tools`, as declared (what scripted calls are compared against). */
  readonly declared: readonly string[];
}

/** Returns `undefined` when the file is missing or unreadable: the rest of the arena is not checked. */
export function validateToml(file: string, dirName: string, findings: FileFindings): TomlFacts | undefined {
  const read = readArenaText(file);
  if (read.kind === "missing") {
    findings.error(1, "missing arena.toml");
    return undefined;
  }
  if (read.kind === "invalid") {
    findings.error(read.line, read.reason);
    return undefined;
  }
  const parsed = parseToml(read.text);
  if (!parsed.ok) {
    findings.error(parsed.line, `invalid TOML (${parsed.reason})`);
    return undefined;
  }
  const { table } = parsed;
  const lines = new TomlLines(read.text);

  const id = table["id"];
  if (id !== dirName) findings.error(lines.key("id"), `id ${pyRepr(tomlToPy(id))} != directory name ${pyRepr(dirName)}`);
  const unsafe = typeof id === "string" ? unsafeIdProblem(id) : undefined;
  if (unsafe) findings.error(lines.key("id"), unsafe);

  const tools = Array.isArray(table["tools"]) ? (table["tools"] as unknown[]) : [];
  const known: readonly string[] = TOOL_NAMES;
  const unknown = tools.filter((t) => typeof t !== "string" || !known.includes(t));
  if (unknown.length > 0) {
    const first = unknown.find((t): t is string => typeof t === "string");
    const line = first === undefined ? lines.key("tools") : lines.element("tools", first);
    const available = pyRepr([...known].sort());
    findings.error(line, `declares tools ${pyRepr(unknown.map(tomlToPy))} that arena.tools does not provide (${available})`);
  }

  for (const problem of tomlTypeProblems(table)) findings.error(lines.key(problem.key), problem.text);

  const description = table["description"] ?? "";
  if (typeof description === "string" && isBlank(description)) {
    findings.warn(lines.key("description"), "empty 'description' (it heads the scorecard)");
  }
  const intent = table["system_prompt_intent"] ?? "";
  if (typeof intent === "string" && isBlank(intent)) findings.warn(lines.key("system_prompt_intent"), "empty 'system_prompt_intent'");

  return { declared: tools.filter((t): t is string => typeof t === "string") };
}
