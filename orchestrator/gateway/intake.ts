/**
 * One chat completion from arrival to the answerer: the attempt is counted before anything else
 * (so a fault, a 401 or a client that leaves is still an attempt), then the worker key, the
 * injected fault, the stall, the body under its limit, the hold, and last the answerer, which sees
 * only a parsed body and the settle/finish/served hooks of {@link Completion}.
 */
import type http from "node:http";
import type { Answerer, Completion } from "./answer.ts";
import { faultResponse, type FaultPlan } from "./faults.ts";
import { guarded, INVALID_JSON_BODY } from "./http-util.ts";
import type { ResolvedOptions } from "./options.ts";
import { faultOfStatus, type LiveAttempt } from "./record-types.ts";
import { nowMs, type Recorder } from "./recorder.ts";
import { parseBody, readLimitedBody } from "./request-body.ts";
import type { Route } from "./route.ts";
import { finish, settle } from "./settle.ts";
import { UNAUTHORIZED_BODY } from "./worker-key.ts";

export interface IntakeContext {
  readonly options: ResolvedOptions;
  readonly recorder: Recorder;
  readonly faults: FaultPlan;
  readonly answerer: Answerer;
  /** True once the gateway is stopping: its own teardown is not the client giving up. */
  readonly stopping: () => boolean;
}

export interface CompletionIntake {
  /** Take a completion request whose earliest vouched start is `startedAt` (arrival.ts); returns its attempt, which a deadline may later answer. */
  take(req: http.IncomingMessage, res: http.ServerResponse, route: Route, authorized: boolean, startedAt: number): LiveAttempt;
  /** Cancel every pending stall and hold (the gateway stops). */
  close(): void;
}

export function completionIntake(ctx: IntakeContext): CompletionIntake {
  const { options: opts, recorder, faults, answerer } = ctx;
  // Every pending stall and hold, so a stopping gateway cancels them all.
  const waitTimers = new Set<NodeJS.Timeout>();

  function serve(req: http.IncomingMessage, res: http.ServerResponse, attempt: LiveAttempt, route: Route, raw: Buffer): void {
    const parsed = parseBody(raw);
    if (parsed === undefined) {
      finish(res, attempt, "rejected", 400, INVALID_JSON_BODY);
      return;
    }
    let recorded = false;
    const completion: Completion = {
      req,
      res,
      attempt,
      route,
      ...parsed,
      settle: (outcome, status) => settle(attempt, outcome, status),
      finish: (outcome, status, reply, headers, contentType) => finish(res, attempt, outcome, status, reply, headers, contentType),
      served: (usage, message) => {
        if (recorded) return;
        recorded = true;
        recorder.recordServed(attempt, parsed.raw, parsed.text, usage, message);
      },
    };
    if (opts.holdMs <= 0) {
      answerer.answer(completion);
      return;
    }
    // The answer is made after the hold, as a provider's is after it has generated, so a client
    // that leaves meanwhile finds the attempt pending (aborted), never a reply it did not wait for.
    const hold = setTimeout(() => {
      waitTimers.delete(hold);
      guarded(res, () => answerer.answer(completion));
    }, opts.holdMs);
    hold.unref();
    waitTimers.add(hold);
    res.once("close", () => {
      clearTimeout(hold);
      waitTimers.delete(hold);
    });
  }

  function readAndServe(req: http.IncomingMessage, res: http.ServerResponse, attempt: LiveAttempt, route: Route): void {
    if (res.destroyed) return;
    readLimitedBody(req, res, attempt, opts.maxBodyBytes, (raw) => guarded(res, () => serve(req, res, attempt, route, raw)));
  }

  function take(req: http.IncomingMessage, res: http.ServerResponse, route: Route, authorized: boolean, startedAt: number): LiveAttempt {
    const { attempt: n, status } = faults.next();
    const attempt = recorder.beginAttempt(n, route.tag, startedAt);
    let stallTimer: NodeJS.Timeout | undefined;
    let stalled = false;
    res.once("close", () => {
      if (stallTimer !== undefined) {
        clearTimeout(stallTimer);
        waitTimers.delete(stallTimer);
      }
      if (res.writableFinished) {
        attempt.endedAt ??= nowMs();
        return;
      }
      if (!ctx.stopping()) attempt.closedAt = nowMs();
      // A client that gave up on a stalled request waited for the "provider" past its own timeout.
      if (stalled && !ctx.stopping() && attempt.outcome === "pending") attempt.providerFault ??= "timeout";
      if (attempt.outcome === "pending") attempt.outcome = "aborted";
    });

    if (!authorized) {
      // A rejected attempt (a worker trying another key is worth seeing); the body is discarded unread.
      req.resume();
      req.once("end", () => guarded(res, () => finish(res, attempt, "rejected", 401, UNAUTHORIZED_BODY)));
      return attempt;
    }
    if (status !== 200) {
      // Read and discard: the body is never parsed, recorded or billed, and no turn is consumed.
      req.resume();
      req.once("end", () =>
        guarded(res, () => {
          const f = faultResponse(status, opts.retryAfter);
          // Recorded as the proxy records a provider's own 429 or 5xx, so mock runs drive the same rules.
          if (attempt.outcome === "pending") attempt.providerFault = faultOfStatus(f.status);
          finish(res, attempt, "faulted", f.status, f.body, f.headers);
        }),
      );
      return attempt;
    }
    if (opts.stallMs > 0) {
      stalled = true;
      stallTimer = setTimeout(() => {
        waitTimers.delete(stallTimer as NodeJS.Timeout);
        stallTimer = undefined;
        stalled = false;
        guarded(res, () => readAndServe(req, res, attempt, route));
      }, opts.stallMs);
      // A hung provider must not be what keeps the orchestrator's process alive.
      stallTimer.unref();
      waitTimers.add(stallTimer);
      return attempt;
    }
    readAndServe(req, res, attempt, route);
    return attempt;
  }

  return {
    take,
    close() {
      for (const t of waitTimers) clearTimeout(t);
      waitTimers.clear();
    },
  };
}
