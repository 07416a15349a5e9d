/**
 * The contract's texts that more than one adapter puts on the wire or in a result, and that the
 * witness recognises (harness.md §3, §7, §8). Typed once, here, so an adapter and the rule that
 * checks it cannot drift apart.
 */
import { DECISIONS } from "./protocol.ts";

/** A leg's `error` when it spent its whole `max_tool_iterations` budget (harness.md §3). */
export const MAX_ITERATIONS_ERROR = "max tool iterations exceeded";

/** What the model reads as a pause call's result once the human decided (harness.md §7): `Decision: approve.` */
export function decisionText(decision: unknown): string {
  return `Decision: ${typeof decision === "string" ? decision : JSON.stringify(decision)}.`;
}

/** What a call batched after a pause call is answered with: it never runs (tools.md §7). */
export const PAUSED_SIBLING_TEXT = "Not executed - the run paused for an approval decision.";

/** Every text that answers a pause call or its later siblings instead of a tool's output. */
export const PAUSE_TEXTS: ReadonlySet<string> = new Set([...DECISIONS.map(decisionText), PAUSED_SIBLING_TEXT]);

/**
 * The stage instructions of the researcher → writer → editor pipeline (harness.md §8), appended
 * to the arena prompt by every pipeline entry so the variants differ only in their framework. The
 * backticks around `search` are literal characters of the text.
 */
export const PIPELINE_ROLES = {
  researcher:
    "You are the researcher on this pipeline. Use the `search` tool to gather the facts the brief needs. Do not write the brief yourself.",
  writer:
    "You are the writer on this pipeline. Using only the facts already gathered above, write the brief. Reply with the brief and nothing else.",
  editor:
    "You are the editor on this pipeline. Check the draft above against the task and reply with the final brief, revised if needed and unchanged if not. Reply with the brief and nothing else.",
} as const;

export type PipelineRole = keyof typeof PIPELINE_ROLES;

/** A pipeline stage's system message: the arena prompt, a blank line, the stage's role text. */
export function stagePrompt(systemPrompt: string, role: string): string {
  return `${systemPrompt}\n\n${role}`;
}

/**
 * A non-2xx reply from the gateway, for adapters that speak HTTP themselves: the baseline's
 * wording `LLM HTTP <status>: <body>`, which the harness's error classes key on (a 5xx is `infra`).
 * An adapter may subclass it for its own error name.
 */
export class LlmHttpError extends Error {
  override readonly name: string = "LlmHttpError";
  readonly status: number;
  constructor(status: number, body: string) {
    super(`LLM HTTP ${status}: ${body}`);
    this.status = status;
  }
}
