/**
 * The witness on the gateway's own thread, for the throughput section's "gateway + witness" rows:
 * every few milliseconds it takes what the gateway recorded since the last look, judges each
 * served request as a one-request item (its reply as the exchange, parsed from the recorder as a
 * run's watchLeg does) by the served result and every per-item rule, and clears the records. So
 * the replies/s it leaves is what the gateway sustains while a run's witness shares its loop.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { toJs } from "@agentic-arena/py-semantics";
import { BASELINE_DECLARATION } from "../../contract/declarations.ts";
import type { Arena } from "../../orchestrator/arena/schemas.ts";
import type { Gateway } from "../../orchestrator/gateway/index.ts";
import { canonicalOutputs } from "../../orchestrator/witness/canonical.ts";
import { servedResult } from "../../orchestrator/witness/served.ts";
import type { ItemEvidence, LaneContext } from "../../orchestrator/witness/types.ts";
import type { Body } from "../../orchestrator/witness/wire.ts";
import { witnessItem } from "../../orchestrator/witness/witness.ts";

const CORPUS = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../arenas/corpus.json");

export interface Witnessing {
  /** Stops judging; how many requests were judged and how many rule violations they had (0 expected). */
  stop(): { judged: number; violations: number };
}

export function startWitnessing(gateway: Gateway, arena: Arena, everyMs = 20): Witnessing {
  const lane: LaneContext = {
    mode: "mock",
    model: "mock-model",
    temperature: 0,
    maxToolIterations: 6,
    declaredTools: arena.declaredTools,
    systemPrompt: arena.systemPrompt,
    wireExceptions: [],
    delegates: [],
    declaration: BASELINE_DECLARATION,
    systemPrompts: [arena.systemPrompt],
    canonical: canonicalOutputs(CORPUS),
  };
  let judged = 0;
  let violations = 0;
  const drain = () => {
    const records = gateway.recorder.records();
    gateway.recorder.clear();
    const replies = new Map(records.responseMessages.map((m) => [m.attempt, toJs(m.message)]));
    for (const r of records.requests) {
      const request = r.plain as Body;
      const usage = { prompt_tokens: 0, completion_tokens: 0, llm_calls: 1 };
      const legs = [{ requests: [request], served: usage, reported: usage, answered: true, exchanges: [{ request, reply: replies.get(r.attempt) ?? null }] }];
      const input = String((request.messages as Body[] | undefined)?.find((m) => m.role === "user")?.content ?? "");
      const item: ItemEvidence = { itemId: `a${r.attempt}`, repeat: 0, input, legs, passed: true, served: servedResult(legs, lane.declaration, lane.delegates) };
      violations += witnessItem(item, lane).length;
      judged += 1;
    }
  };
  const timer = setInterval(drain, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      drain();
      return { judged, violations };
    },
  };
}
