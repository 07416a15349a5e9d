/**
 * What the witness judges: the requests the gateway recorded for each leg of an item, against
 * the arena and the configuration of the run. Violations carry the rule, where, and the evidence
 * (expected against seen, cut short).
 */
import type { WireDeclaration } from "../../contract/declarations.ts";
import type { NormalCall } from "./normal.ts";
import type { Body } from "./wire.ts";

export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly llm_calls: number;
}

export interface WitnessedLeg {
  /** The request bodies the gateway recorded for this leg, in arrival order (every attempt). */
  readonly requests: readonly Body[];
  /** What the gateway served during the leg. */
  readonly served: Usage;
  /** What the adapter said it used (its own report). */
  readonly reported: Usage;
  /** The leg returned a result (an answer or a pause), rather than an error. */
  readonly answered: boolean;
  /** Each served request with the reply and usage the gateway gave it: the item's transcript. */
  readonly exchanges?: readonly Exchange[];
  /** What the adapter said the leg produced, when it answered (compared with what was served). */
  readonly result?: ReportedLeg;
}

export interface ReportedLeg {
  readonly output_text: string;
  readonly tool_calls: readonly { readonly name: string }[];
  readonly suspended: boolean;
  readonly error: string | null;
}

export interface Exchange {
  readonly request: Body;
  /** The assistant message as the gateway sent it (streamed replies included, reassembled). */
  readonly reply: unknown;
  readonly usage?: { readonly prompt_tokens: number; readonly completion_tokens: number };
}

export interface ServedResult {
  /** What the scorer reads: the last non-empty content served on the last leg (witness/served.ts). */
  readonly answer: string;
  /** Task tool calls in served replies, every leg, in order (control, handoff, delegate and pause calls excluded). */
  readonly toolCalls: readonly NormalCall[];
  /** Per leg: the task calls it was served, and the pause tool its replies called (if any). */
  readonly legs: readonly { readonly calls: readonly NormalCall[]; readonly pauseTool?: string }[];
}

export interface ItemEvidence {
  readonly itemId: string;
  readonly repeat: number;
  readonly input: string;
  readonly legs: readonly WitnessedLeg[];
  readonly passed: boolean;
  /** The result as served (served.ts), when the run computed it for scoring; the rule reads the same one. */
  readonly served?: ServedResult;
  /** Mock mode: how many LLM calls the item's scripted turns take (the script decides). */
  readonly scriptedCalls?: number;
}

export interface LaneContext {
  readonly mode: "mock" | "live";
  readonly model: string;
  readonly temperature: number;
  /** The run's LLM-call budget per leg (`max_tool_iterations`). */
  readonly maxToolIterations: number;
  /** The arena's tools as declared, and its collapsed prompt. */
  readonly declaredTools: readonly string[];
  readonly systemPrompt: string;
  /** Request keys outside the envelope the adapter records as a mechanism requirement. */
  readonly wireExceptions: readonly string[];
  /** Sub-agent tool names the adapter declares (tools.md §8). */
  readonly delegates: readonly string[];
  /** What the adapter declares about its wire (contract/declarations.ts); the baseline's form when it declares nothing. */
  readonly declaration: WireDeclaration;
  /** The system texts the declaration allows on this arena (templates filled in). */
  readonly systemPrompts: readonly string[];
  /** The canonical tool's output for a call (the shared dispatch). */
  readonly canonical: (name: string, args: string) => string;
}

export interface RuleViolation {
  readonly rule: string;
  /** 1-based leg and request within the item (request absent for item-level rules). */
  readonly leg: number;
  readonly request?: number;
  readonly detail: string;
}

export interface Rule {
  readonly id: string;
  /** One line, for docs and the scorecard legend. */
  readonly summary: string;
  /** Judges one request of one leg (absent for item- or lane-level rules). */
  readonly request?: (body: Body, item: ItemEvidence, lane: LaneContext) => string[];
  /** Judges a whole item (usage, calls, the transcript against what was served). */
  readonly item?: (item: ItemEvidence, lane: LaneContext) => { leg: number; request?: number; detail: string }[];
}
