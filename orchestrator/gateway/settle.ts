/**
 * Settling an attempt: the one place an attempt's outcome and status are set by a reply. A client
 * that left, or a deadline that already answered, settled it first; a second reply then writes
 * nothing, so a request is never answered or counted twice.
 */
import type http from "node:http";
import { send } from "./http-util.ts";
import type { AttemptOutcome, LiveAttempt } from "./record-types.ts";

export type ReplyOutcome = Exclude<AttemptOutcome, "pending" | "aborted">;

/** Settle a pending attempt; false when something (the client leaving, a timeout) already did. */
export function settle(attempt: LiveAttempt, outcome: ReplyOutcome, status: number): boolean {
  if (attempt.outcome !== "pending") return false;
  attempt.outcome = outcome;
  attempt.status = status;
  return true;
}

/** Settle, and send the reply only if this call was the one that settled it. */
export function finish(
  res: http.ServerResponse,
  attempt: LiveAttempt,
  outcome: ReplyOutcome,
  status: number,
  body: string,
  headers?: Readonly<Record<string, string>>,
  contentType?: string,
): void {
  if (settle(attempt, outcome, status)) send(res, status, body, headers, contentType);
}
