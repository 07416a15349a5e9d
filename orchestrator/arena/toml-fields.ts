/**
 * Type checks on arena.toml values that the loader and the validator share, so an arena the
 * validator passes always loads. (The original coerced these with Python truthiness, e.g. a
 * string `"false"` for `durable` meant true; the port rejects them instead.)
 */
import { tomlTypeName, type TomlTable } from "./toml.ts";

export interface TomlProblem {
  readonly key: string;
  readonly text: string;
}

const STRING_KEYS = ["description", "system_prompt_intent"] as const;

export function tomlTypeProblems(table: TomlTable): TomlProblem[] {
  const problems: TomlProblem[] = [];
  for (const key of STRING_KEYS) {
    const v = table[key];
    if (v !== undefined && typeof v !== "string") problems.push({ key, text: `'${key}' must be a string, got ${tomlTypeName(v)}` });
  }
  const tools = table["tools"];
  if (tools !== undefined && !Array.isArray(tools)) {
    problems.push({ key: "tools", text: `'tools' must be a list of strings, got ${tomlTypeName(tools)}` });
  }
  const durable = table["durable"];
  if (durable !== undefined && typeof durable !== "boolean") {
    problems.push({ key: "durable", text: `'durable' must be a boolean, got ${tomlTypeName(durable)}` });
  }
  return problems;
}
