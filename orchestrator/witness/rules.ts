/**
 * The rules the witness checks on every recorded request of every run — bench, run, live,
 * resumed legs and probe runs alike. Each rule is defined once, with its id and the check; the
 * registry order is the order violations are reported in.
 */
import { isDeepStrictEqual } from "node:util";
import { isControlTool, namesFor, specsFor } from "../../contract/tools/registry.ts";
import { exactToolViolations } from "./exact-tools.ts";
import { historyViolations, type HistoryViolation } from "./history.ts";
import { LIMIT_RULES } from "./limits.ts";
import { toolFidelityViolations } from "./schema.ts";
import { servedResultViolations } from "./served-rule.ts";
import type { ItemEvidence, LaneContext, Rule } from "./types.ts";
import { advertisedNames, cut, isBlindStream, messages, messageText, systemTexts, wireFunctions, type Body } from "./wire.ts";

/** The keys the baseline sends: any other key needs a recorded exception with its reason. */
export const ENVELOPE: readonly string[] = ["model", "messages", "temperature", "stream", "tools", "tool_choice"];

function taskCalls(body: Body): Map<string, { name: string; args: string }> {
  const calls = new Map<string, { name: string; args: string }>();
  for (const m of messages(body)) {
    if (m.role !== "assistant" || !Array.isArray(m.tool_calls)) continue;
    for (const c of m.tool_calls) {
      if (typeof c?.id !== "string" || typeof c?.function?.name !== "string") continue;
      const args = typeof c.function.arguments === "string" ? c.function.arguments : JSON.stringify(c.function.arguments ?? {});
      calls.set(c.id, { name: c.function.name, args });
    }
  }
  return calls;
}

const HISTORY_SUMMARIES: Record<HistoryViolation["rule"], string> = {
  transcript: "the transcript is append-only and served: every replayed assistant turn was served for this item, and each request extends the previous one of its conversation with the served reply",
  "tool-output": "every tool message is, byte for byte, the canonical output of the call as the gateway served it (or the declared text of an exempt tool)",
  "framework-message": "no user message beyond the item's input, except the framework messages the adapter declares, built from what was served",
};

/**
 * The tool rules depend on the tools block and the lane alone, and a lane sends the same block on
 * nearly every request: their verdict is kept per lane and block (a few blocks at most; a lane
 * that sends many different ones is judged afresh past the cap, never misjudged).
 */
const TOOL_VERDICTS_PER_LANE = 32;
const toolVerdicts = new WeakMap<LaneContext, Map<string, string[]>>();
const toolsKeys = new WeakMap<Body, string>();
function perToolsBlock(rule: string, body: Body, lane: LaneContext, judge: () => string[]): string[] {
  let verdicts = toolVerdicts.get(lane);
  if (!verdicts) toolVerdicts.set(lane, (verdicts = new Map()));
  let block = toolsKeys.get(body);
  if (block === undefined) toolsKeys.set(body, (block = JSON.stringify(body.tools ?? null)));
  const key = `${rule}\0${block}`;
  const known = verdicts.get(key);
  if (known) return known;
  const verdict = judge();
  if (verdicts.size < TOOL_VERDICTS_PER_LANE) verdicts.set(key, verdict);
  return verdict;
}

/** The transcript rules share one walk of the item's exchanges. */
const walks = new WeakMap<ItemEvidence, { lane: LaneContext; violations: HistoryViolation[] }>();
function historyOf(item: ItemEvidence, lane: LaneContext): HistoryViolation[] {
  const cached = walks.get(item);
  if (cached && cached.lane === lane) return cached.violations;
  const violations = historyViolations(item, lane);
  walks.set(item, { lane, violations });
  return violations;
}

export const RULES: readonly Rule[] = [
  {
    id: "model",
    summary: "every request asks for the configured model",
    request: (body, _item, lane) => (body.model === lane.model ? [] : [`model ${cut(JSON.stringify(body.model ?? null))}, configured ${JSON.stringify(lane.model)}`]),
  },
  {
    id: "temperature",
    summary: "every request carries the configured temperature",
    request: (body, _item, lane) => {
      if (!("temperature" in body)) return [`temperature missing, configured ${lane.temperature}`];
      return body.temperature === lane.temperature ? [] : [`temperature ${JSON.stringify(body.temperature)}, configured ${lane.temperature}`];
    },
  },
  {
    id: "envelope",
    summary: "no request key outside the baseline's envelope unless the adapter records it as an exception",
    request: (body, _item, lane) => {
      const out: string[] = [];
      for (const key of Object.keys(body)) {
        if (key === "stream_options") {
          if (body.stream !== true || body.stream_options?.include_usage !== true) out.push(`stream_options ${cut(JSON.stringify(body.stream_options))} without stream: true and include_usage: true`);
        } else if (!ENVELOPE.includes(key) && !lane.wireExceptions.includes(key)) {
          out.push(`${JSON.stringify(key)} is outside the envelope and no exception is recorded for it`);
        }
      }
      return out;
    },
  },
  {
    id: "stream-usage",
    summary: "a streamed request asks for usage (stream ⇒ include_usage)",
    request: (body) => (isBlindStream(body) ? ["streams without stream_options.include_usage: a provider then bills without saying"] : []),
  },
  {
    id: "declared-tools",
    summary: "the advertised tools are exactly the arena's declared tools (plus control tools, handoffs, declared delegates)",
    request: (body, _item, lane) =>
      perToolsBlock("declared-tools", body, lane, () => {
        const task = advertisedNames(body).filter((n) => !isControlTool(n, lane.delegates));
        if (task.length === 0) return []; // a tool-less stage of a pipeline
        const expected = namesFor(lane.declaredTools);
        return isDeepStrictEqual(task, expected) ? [] : [`advertises ${JSON.stringify(task)}, the arena declares ${JSON.stringify(expected)}`];
      }),
  },
  {
    id: "tool-schema",
    summary: "each declared tool is the canonical spec exactly (key order aside), after the transformations the adapter declares",
    request: (body, _item, lane) =>
      perToolsBlock("tool-schema", body, lane, () => {
        const fns = wireFunctions(body);
        const specs = specsFor(lane.declaredTools);
        if (!specs.some((s) => fns.has(s.function.name))) return [];
        return specs.flatMap((spec) => {
          // The structural gates name the breach best (a missing parameter, a type); exactness catches the rest.
          const structural = toolFidelityViolations(spec, fns.get(spec.function.name));
          return structural.length > 0 ? structural : exactToolViolations(spec, fns.get(spec.function.name), lane.declaration);
        });
      }),
  },
  {
    id: "system-prompt",
    summary: "every system text is the arena's prompt, or the adapter's declared template with the prompt in its slot",
    request: (body, _item, lane) => {
      const texts = systemTexts(body);
      if (texts.length === 0) return [`no system message: the arena prompt ${cut(JSON.stringify(lane.systemPrompt), 80)} is not sent as one`];
      return texts
        .filter((t) => !lane.systemPrompts.includes(t))
        .map((t) => (t.includes(lane.systemPrompt) ? `a system text that wraps the arena prompt in no declared template: ${cut(JSON.stringify(t), 160)}` : `a system text that is not the arena prompt: ${cut(JSON.stringify(t), 120)}`));
    },
  },
  {
    id: "replay",
    summary: "each request replays the transcript: the item input first, and every tool message answers a call it carries",
    request: (body, item) => {
      const out: string[] = [];
      const firstUser = messages(body).find((m) => m.role === "user");
      if (!firstUser || messageText(firstUser) !== item.input) {
        out.push(`the first user message is ${firstUser ? cut(JSON.stringify(messageText(firstUser))) : "absent"}, not the item input`);
      }
      const calls = taskCalls(body);
      for (const m of messages(body)) {
        if (m.role === "tool" && !calls.has(m.tool_call_id)) out.push(`a tool message answers ${JSON.stringify(m.tool_call_id ?? null)}, a call the request does not carry`);
      }
      return out;
    },
  },
  ...(["transcript", "tool-output", "framework-message"] as const).map(
    (id): Rule => ({
      id,
      summary: HISTORY_SUMMARIES[id],
      item: (item, lane) => historyOf(item, lane).filter((v) => v.rule === id),
    }),
  ),
  {
    id: "served-result",
    summary: "the adapter's reported answer, tool calls and pause are the ones the gateway served (after the declared normalisation)",
    item: (item, lane) => servedResultViolations(item, lane),
  },
  {
    id: "usage-reported",
    summary: "the adapter's own usage report equals what the gateway served, on every leg that returned a report",
    item: (item) =>
      item.legs.flatMap((leg, i) => {
        // A leg that errored or died before answering could not report: its zeros are not a claim.
        if (!leg.answered) return [];
        const keys = ["prompt_tokens", "completion_tokens", "llm_calls"] as const;
        const off = keys.filter((k) => leg.reported[k] !== leg.served[k]);
        return off.length === 0 ? [] : [{ leg: i + 1, detail: off.map((k) => `${k} reported ${leg.reported[k]}, served ${leg.served[k]}`).join("; ") }];
      }),
  },
  {
    id: "no-llm-call",
    summary: "no leg answers without an LLM call served for it",
    item: (item) => item.legs.flatMap((leg, i) => (leg.answered && leg.served.llm_calls === 0 ? [{ leg: i + 1, detail: "the leg returned a result, and the gateway served it no LLM call" }] : [])),
  },
  {
    id: "unasked-model",
    summary: "mock mode: no item passes with fewer served calls than its scripted turns take",
    item: (item, lane) => {
      if (lane.mode !== "mock" || !item.passed || item.scriptedCalls === undefined) return [];
      const served = item.legs.reduce((n, l) => n + l.served.llm_calls, 0);
      return served < item.scriptedCalls ? [{ leg: item.legs.length, detail: `passed with ${served} served call(s); the script takes ${item.scriptedCalls}` }] : [];
    },
  },
  // The limits a probe used to judge only in its own runs (limits.ts): iteration-cap, retry.
  ...LIMIT_RULES,
];

export const RULE_IDS: readonly string[] = RULES.map((r) => r.id);
