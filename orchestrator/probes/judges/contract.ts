/**
 * The contract probes (probes.md §1–§6) as pure checks: each takes what the wire showed and
 * returns its violations, so the same function is asserted empty for every real adapter and
 * non-empty for the hostile fixture that breaks its rule.
 */
import { checkDeclaredDelegates, isControlTool, namesFor } from "../../../contract/tools/registry.ts";
import { messageText } from "../wire.ts";
import type { Body, WireRun } from "../wire.ts";

const quote = (s: string, max = 80) => JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
const where = (i: number, n: number) => `request ${i + 1}/${n}`;

/** The run could not be judged at all (unavailable, nothing ran, nothing reached the gateway). */
export function runViolations(run: WireRun): string[] {
  const adapterRecord = run.record;
  if (!adapterRecord.available) return [`${adapterRecord.framework} unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  if (adapterRecord.items.length === 0) return ["no items ran"];
  if (run.bodies.length === 0) return ["no request reached the gateway"];
  return [];
}

/** A rule's judge, run only on a run that happened: otherwise the answer is why it did not. */
export function judgeRun<A extends unknown[]>(judge: (run: WireRun, ...args: A) => string[]): (run: WireRun, ...args: A) => string[] {
  return (run, ...args) => {
    const base = runViolations(run);
    return base.length > 0 ? base : judge(run, ...args);
  };
}

const messages = (body: Body): Body[] => (Array.isArray(body.messages) ? body.messages : []);

/** Names advertised in a request, in order (Chat Completions `tools[i].function.name`). */
export function advertisedNames(body: Body): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.map((t: Body) => t?.function?.name).filter((n: unknown): n is string => typeof n === "string");
}

// ---------------------------------------------------------------- §1

/** §1: the collapsed arena prompt is a substring of every served request's message text (every pipeline stage). */
export const promptViolations = judgeRun(function promptViolations(run: WireRun, sentence: string): string[] {
  const out: string[] = [];
  run.bodies.forEach((body, i) => {
    const text = messages(body).map(messageText).join("\n");
    if (!text.includes(sentence)) {
      const system = messages(body).find((m) => m.role === "system" || m.role === "developer");
      out.push(
        `${where(i, run.bodies.length)}: the arena prompt is missing from the messages (system message: ${system ? quote(messageText(system)) : "none"})`,
      );
    }
  });
  return out;
});

// ---------------------------------------------------------------- §2

/**
 * §2: advertised names minus control tools, handoffs and declared delegates, in order, equal
 * `namesFor(arenaTools)` exactly. A request that advertises no task tool at all (a tool-less
 * pipeline stage: a writer, an editor) grants nothing and is allowed; but at least one request
 * must advertise the arena's tools.
 */
export const declaredToolsViolations = judgeRun(function declaredToolsViolations(run: WireRun, arenaTools: readonly string[], delegates: readonly string[]): string[] {
  const expected: readonly string[] = namesFor(arenaTools);
  const out: string[] = [];
  let exact = 0;
  run.bodies.forEach((body, i) => {
    const task = advertisedNames(body).filter((n) => !isControlTool(n, delegates));
    if (task.length === 0) return;
    if (task.length === expected.length && task.every((n, j) => n === expected[j])) {
      exact += 1;
      return;
    }
    const extras = task.filter((n) => !expected.includes(n));
    const dupes = task.filter((n, j) => task.indexOf(n) !== j);
    const detail = [
      extras.length ? `undeclared ${JSON.stringify(extras)}` : "",
      dupes.length ? `duplicated ${JSON.stringify(dupes)}` : "",
    ].filter(Boolean);
    out.push(
      `${where(i, run.bodies.length)}: advertises ${JSON.stringify(task)} (exempt names removed), the arena declares ${JSON.stringify(expected)}` +
        (detail.length ? ` — ${detail.join(", ")}` : ""),
    );
  });
  if (exact === 0 && out.length === 0) out.push(`no request advertised the arena's tools ${JSON.stringify(expected)}`);
  return out;
});

/** §2: a declared delegate may not cover a tool any arena declares (tools.md §8). */
export function delegateCollisionViolations(delegates: readonly string[], allArenaTools: readonly string[]): string[] {
  try {
    checkDeclaredDelegates(delegates, allArenaTools);
    return [];
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  }
}

/** §2: every declared delegate is advertised somewhere in the runs of the adapter's own arena(s). */
export function staleDelegateViolations(delegates: readonly string[], runs: readonly WireRun[]): string[] {
  const seen = new Set(runs.flatMap((r) => r.bodies.flatMap(advertisedNames)));
  return delegates
    .filter((d) => !seen.has(d))
    .map((d) => `declared delegate ${JSON.stringify(d)} is never advertised on the adapter's own arena (a stale exemption)`);
}

// ---------------------------------------------------------------- §3

/**
 * §3 as every run judges it: the run record's `iteration-cap` violations (witness/limits.ts). The
 * probe reads them as well as counting the wire itself, so the rule a bench checks on every run is
 * shown, adapter by adapter, to agree with the probe at the probe's own caps.
 */
export function witnessedCapViolations(run: WireRun): string[] {
  return run.record.items.flatMap((item) =>
    (item.violations ?? []).filter((v) => v.rule === "iteration-cap").map((v) => `witness: ${item.item_id} leg ${v.leg}: iteration-cap: ${v.detail}`),
  );
}

/** §3: exactly `cap` LLM requests served against a model that never stops asking for tools; and the run ended by itself. */
export function capViolations(run: WireRun, cap: number): string[] {
  const adapterRecord = run.record;
  if (!adapterRecord.available) return [`${adapterRecord.framework} unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  const out: string[] = [];
  if (run.bodies.length !== cap) {
    out.push(`served ${run.bodies.length} LLM requests with max_tool_iterations = ${cap} (must be exactly ${cap})`);
  }
  for (const item of adapterRecord.items) {
    if (item.error?.includes("worker did not answer within")) out.push(`${item.item_id}: the run did not end by itself (${item.error})`);
  }
  return out;
}

// ---------------------------------------------------------------- §4–§6

/** One decoding step: a JSON object → its values' string forms joined by `\n`; a JSON string → that string. */
export function decodeOnce(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof parsed === "string") return parsed;
  if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) {
    return Object.values(parsed).map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("\n");
  }
  return text;
}

/**
 * §4: the tool result as the model saw it in `body`: scanning from the end, skipping `system`
 * and `assistant` messages, the first decoded message text containing `marker`. The carrying role
 * is free (`tool`, `user`, …) and wrapping text is allowed.
 */
export function findToolResult(body: Body | undefined, marker: string): string | undefined {
  if (!body) return undefined;
  for (const m of [...messages(body)].reverse()) {
    if (m.role === "system" || m.role === "assistant") continue;
    const decoded = decodeOnce(messageText(m));
    if (decoded.includes(marker)) return decoded;
  }
  return undefined;
}

function firstDifference(found: string, truth: string): string {
  let best = 0;
  for (let start = found.indexOf(truth.slice(0, 20)); start !== -1; start = found.indexOf(truth.slice(0, 20), start + 1)) {
    let i = 0;
    while (i < truth.length && found[start + i] === truth[i]) i++;
    best = Math.max(best, i);
  }
  return best === 0 ? "its opening is not there" : `it matches for ${best} of ${truth.length} characters`;
}

/** §4: the last request carries `truth` (dispatch's output) in full. */
export const toolResultViolations = judgeRun(function toolResultViolations(run: WireRun, truth: string, marker: string): string[] {
  const found = findToolResult(run.bodies.at(-1), marker);
  if (found === undefined) return [`no message of the last request carries the tool result (none mentions ${JSON.stringify(marker)})`];
  if (!found.includes(truth)) {
    return [
      `the tool result in the last request (${found.length} chars) does not contain dispatch's output (${truth.length} chars) in full: ${firstDifference(found, truth)}`,
    ];
  }
  return [];
});

function parseArguments(raw: unknown): Body | undefined {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Body) : undefined;
}

/**
 * §5: the adapter reported exactly one call, `search`, on the model's arguments (`query`, plus an
 * optional `k`), and the tool result on the wire is dispatch's output for those arguments.
 */
export const toolArgumentViolations = judgeRun(function toolArgumentViolations(
  run: WireRun,
  expected: { readonly name: string; readonly args: Readonly<Record<string, unknown>>; readonly optional: readonly string[] },
  truth: string,
  marker: string,
): string[] {
  const out: string[] = [];
  const names = run.record.items.flatMap((i) => i.tool_calls);
  if (names.length !== 1 || names[0] !== expected.name) {
    out.push(`the run record lists tool calls ${JSON.stringify(names)}, expected exactly [${JSON.stringify(expected.name)}]`);
  }
  const calls = run.reported.flatMap((leg) => {
    const r = leg.result as { tool_calls?: { name?: unknown; arguments?: unknown }[] } | undefined;
    return Array.isArray(r?.tool_calls) ? r.tool_calls : [];
  });
  if (calls.length !== 1 || calls[0]?.name !== expected.name) {
    out.push(`the adapter reported tool calls ${JSON.stringify(calls.map((c) => c?.name))}, expected exactly [${JSON.stringify(expected.name)}]`);
  } else {
    const args = parseArguments(calls[0]!.arguments);
    const ok =
      args !== undefined &&
      Object.entries(expected.args).every(([k, v]) => args[k] === v) &&
      Object.keys(args).every((k) => k in expected.args || expected.optional.includes(k));
    if (!ok) {
      out.push(`the adapter reported ${expected.name} arguments ${JSON.stringify(calls[0]!.arguments)}, the model asked for ${JSON.stringify(expected.args)}`);
    }
  }
  const found = findToolResult(run.bodies.at(-1), marker);
  if (found === undefined || !found.includes(truth)) {
    out.push(`the tool did not run on the model's arguments: the result on the wire is not dispatch(${JSON.stringify(expected.name)}, ${JSON.stringify(expected.args)})`);
  }
  return out;
});

/** An assistant message carrying a call to `tool`: a `tool_calls` entry, or (text protocols) the call replayed as text. */
function carriesCall(m: Body, tool: string, argText: string): boolean {
  if (m.role !== "assistant") return false;
  if (Array.isArray(m.tool_calls) && m.tool_calls.some((c: Body) => c?.function?.name === tool)) return true;
  const text = messageText(m);
  return text.includes(tool) && text.includes(argText);
}

/**
 * §6: the last request replays the whole transcript — the item input as a user message, the
 * assistant turn carrying the tool call, and the tool result — and every request's first user
 * message is the item input (the gateway selects scenarios by it).
 */
export const transcriptViolations = judgeRun(function transcriptViolations(
  run: WireRun,
  input: string,
  call: { readonly tool: string; readonly argText: string },
  truth: string,
  marker: string,
): string[] {
  const out: string[] = [];
  const last = run.bodies.at(-1)!;
  const lastMessages = messages(last);
  if (!lastMessages.some((m) => m.role === "user" && messageText(m) === input)) {
    out.push(`the last request has no user message equal to the item input ${JSON.stringify(input)}`);
  }
  if (!lastMessages.some((m) => carriesCall(m, call.tool, call.argText))) {
    out.push(`the last request has no assistant message carrying the ${call.tool} call`);
  }
  const found = findToolResult(last, marker);
  if (found === undefined || !found.includes(truth)) out.push("the last request does not carry the tool result");
  run.bodies.forEach((body, i) => {
    const firstUser = messages(body).find((m) => m.role === "user");
    if (!firstUser || messageText(firstUser) !== input) {
      out.push(`${where(i, run.bodies.length)}: the first user message is ${firstUser ? quote(messageText(firstUser)) : "absent"}, not the item input`);
    }
  });
  return out;
});
