/**
 * The grounding trap (probes.md §15), at scorer level: on every unanswerable rag item a factually
 * correct answer from memory, with one search, must fail — and fail on a `not_contains` check, not
 * merely on the refusal phrasing — while an honest refusal with one search passes. Multi-hop items
 * must demand two searches, and the script the gateway serves them must search twice with two
 * different queries. A run of an adapter over rag must pass every item with exactly two searches
 * on each multi-hop item.
 */
import type { Arena, Check } from "../../arena/schemas.ts";
import { compileScript } from "../../gateway/script.ts";
import { selectTurns } from "../../gateway/selection.ts";
import type { AdapterRecord } from "../../report/record.ts";
import { scoreItem } from "../../scoring/score.ts";
import { dumpsPy } from "@agentic-arena/py-semantics";

export const HONEST_REFUSAL = "The corpus does not contain that, so I cannot answer it.";

const type = (c: Check) => String(c.get("type"));

/** item id → what a model answering from parametric memory would say. */
export type Hallucinations = Readonly<Record<string, string>>;

export function groundingViolations(arena: Arena, hallucinations: Hallucinations): string[] {
  const out: string[] = [];
  const oneSearch = { toolNames: ["search"], beforeSuspend: ["search"], suspends: 0, error: null };
  for (const [id, text] of Object.entries(hallucinations)) {
    const item = arena.items.find((i) => i.id === id);
    if (!item) {
      out.push(`${id}: no such item`);
      continue;
    }
    const lie = scoreItem(item.checks, { ...oneSearch, outputText: text });
    const failed = lie.checks.filter((c) => !c.ok).map((c) => c.type);
    if (lie.passed) out.push(`${id}: the answer from memory passes (${JSON.stringify(text)})`);
    else if (!failed.includes("not_contains")) {
      out.push(`${id}: the trap is missing — the answer from memory fails only on ${failed.join(", ")}, not on a not_contains check`);
    }
    const honest = scoreItem(item.checks, { ...oneSearch, outputText: HONEST_REFUSAL });
    if (!honest.passed) {
      out.push(`${id}: the honest refusal fails (${honest.checks.filter((c) => !c.ok).map((c) => `${c.type}: ${c.detail}`).join("; ")})`);
    }
  }
  return out;
}

/** Items whose checks demand at least two tool calls. */
export function multiHopIds(arena: Arena): string[] {
  return arena.items.filter((i) => i.checks.some((c) => type(c) === "min_tool_calls" && Number(c.get("value")) >= 2)).map((i) => i.id);
}

/** Each multi-hop item's scripted turns (as the gateway selects them) search exactly twice, with two different queries. */
export function multiHopScriptViolations(arena: Arena, ids: readonly string[]): string[] {
  const out: string[] = [];
  const script = compileScript(arena.script);
  for (const id of ids) {
    const item = arena.items.find((i) => i.id === id);
    if (!item) {
      out.push(`${id}: no such item`);
      continue;
    }
    if (!item.checks.some((c) => type(c) === "min_tool_calls" && Number(c.get("value")) >= 2)) out.push(`${id}: min_tool_calls < 2`);
    const queries = selectTurns(script, item.input).flatMap((t) =>
      t.kind === "tool_calls" ? t.tool_calls.filter((c) => c.name === "search").map((c) => dumpsPy(c.arguments)) : [],
    );
    if (queries.length !== 2) out.push(`${id}: the script searches ${queries.length} times (expected 2)`);
    else if (queries[0] === queries[1]) out.push(`${id}: the script searches twice with the same query ${queries[0]}`);
  }
  return out;
}

/** An adapter's mock run over rag: every item passes, exactly two searches on each multi-hop item. */
export function ragWalkViolations(adapterRecord: AdapterRecord, arena: Arena, multiHop: readonly string[]): string[] {
  if (!adapterRecord.available) return [`unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  const out: string[] = [];
  const passed = adapterRecord.items.filter((i) => i.passed).length;
  if (passed !== arena.items.length) {
    out.push(`${passed}/${arena.items.length} passed (failing: ${adapterRecord.items.filter((i) => !i.passed).map((i) => i.item_id).join(", ")})`);
  }
  for (const id of multiHop) {
    const item = adapterRecord.items.find((i) => i.item_id === id);
    const searches = item ? item.tool_calls.filter((t) => t === "search").length : 0;
    if (searches !== 2) out.push(`${id}: ${searches} searches on a multi-hop item (expected exactly 2)`);
  }
  return out;
}
