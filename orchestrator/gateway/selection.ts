/** Scenario selection (gateway.md §3): only the first user message of the request decides. */
import { pyStr, type PyValue } from "@agentic-arena/py-semantics";
import type { Turn } from "../arena/schemas.ts";
import type { CompiledScript } from "./script.ts";

/** Python `str()` of the first `role == "user"` message's content (missing → `""`); `""` without one. */
export function firstUserText(messages: readonly PyValue[]): string {
  for (const m of messages) {
    if (m instanceof Map && m.get("role") === "user") {
      const content = m.get("content");
      return content === undefined ? "" : pyStr(content);
    }
  }
  return "";
}

/** The turns of the first scenario (file order) whose match occurs in the lower-cased first user text. */
export function selectTurns(script: CompiledScript, firstUser: string): readonly Turn[] {
  const haystack = firstUser.toLowerCase();
  for (const s of script.scenarios) {
    if (s.match !== "" && haystack.includes(s.match)) return s.turns;
  }
  return script.defaultTurns;
}
