/**
 * The last step of the gateway's one request pipeline (server.ts): record → check → answer.
 * The pipeline numbers the attempt, records it, checks the worker's key, the body's size and its
 * JSON; an {@link Answerer} then answers it — from the mock script (here) or from the provider
 * (upstream.ts) — and says what was served, which the pipeline records under the request's tag.
 */
import type http from "node:http";
import { dumpsPy, type PyDict } from "@agentic-arena/py-semantics";
import type { AttemptOutcome, LiveAttempt } from "./recorder.ts";
import { completionBody } from "./render-native.ts";
import { BadRequestError, planReply, type ReplyContext } from "./reply.ts";
import type { Route } from "./route.ts";
import { errorBody, send } from "./http-util.ts";
import { sseBody } from "./stream.ts";
import type { Usage } from "./usage.ts";

/** A completions request that passed the pipeline's checks, with what the answerer may do to it. */
export interface Completion {
  readonly req: http.IncomingMessage;
  readonly res: http.ServerResponse;
  readonly attempt: LiveAttempt;
  readonly route: Route;
  /** The body as received, its decoded text and its parsed value (`{}` for an empty body). */
  readonly raw: Buffer;
  readonly text: string;
  readonly body: PyDict;
  /**
   * Settle the attempt (outcome and status) unless it already is (the client left, a timeout
   * answered it); false when it was. An answerer writing its own response calls this first.
   */
  settle(outcome: Exclude<AttemptOutcome, "pending" | "aborted">, status: number): boolean;
  /** Settle and send a whole JSON (or `contentType`) reply. */
  finish(
    outcome: Exclude<AttemptOutcome, "pending" | "aborted">,
    status: number,
    body: string,
    headers?: Readonly<Record<string, string>>,
    contentType?: string,
  ): void;
  /** Record the request as served, billed `usage`, answered with `message` (at most once). */
  served(usage: Usage, message: PyDict): void;
}

export interface Answerer {
  /** Answer a completion (synchronously or later); record it served only once its reply is known. */
  answer(c: Completion): void;
  /** Any other request the pipeline passes on (never an attempt, never recorded). */
  other(req: http.IncomingMessage, res: http.ServerResponse, route: Route): void;
  /** The gateway stops: abandon whatever is still in flight. */
  close(): void;
}

const MODELS_BODY = dumpsPy({ object: "list", data: [{ id: "mock-model", object: "model" }] });
const OK_BODY = dumpsPy({ status: "ok" });

/** The mock: answers from the compiled script (gateway.md §2–§8), byte for byte as before the split. */
export function scriptedAnswerer(ctx: ReplyContext): Answerer {
  return {
    answer(c) {
      let plan;
      try {
        plan = planReply(ctx, c.body);
      } catch (e) {
        if (!(e instanceof BadRequestError)) throw e;
        c.finish("rejected", 400, errorBody(e.message));
        return;
      }
      c.served(plan.usage, plan.rendered.message);
      if (plan.stream) {
        c.finish("served", 200, sseBody(plan.meta, plan.rendered, plan.usage, plan.includeUsage), { "Cache-Control": "no-cache" }, "text/event-stream");
      } else {
        c.finish("served", 200, dumpsPy(completionBody(plan.meta, plan.rendered, plan.usage)));
      }
    },
    other(req, res, route) {
      req.resume();
      if (req.method === "POST") {
        send(res, 404, errorBody(`unhandled path ${route.url}`));
        return;
      }
      if (req.method === "GET") {
        let p = route.pathname;
        while (p.endsWith("/")) p = p.slice(0, -1);
        send(res, 200, p.endsWith("/models") ? MODELS_BODY : OK_BODY);
        return;
      }
      send(res, 501, errorBody(`unsupported method ${req.method ?? ""}`));
    },
    close() {},
  };
}
