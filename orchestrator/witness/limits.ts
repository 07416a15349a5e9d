/**
 * Rules the probes judged only in their own runs, checked on every run instead (issue 19): an
 * adapter that can tell a probe run from a bench run, and behaves only in probes, gains nothing
 * when the bench judges the same rule on its own wire.
 *
 * - `iteration-cap` (probes.md §3, harness.md §3): the budget is `max_tool_iterations` LLM calls
 *   per leg, for every adapter (workers/adapters/README.md step 5: a framework that counts turns
 *   or super-steps maps the budget onto them; the cap probe measures that mapping, and no
 *   adapter has a known finding there). So a leg served more calls than the budget broke it, and
 *   a leg that reports the cap's error (MAX_ITERATIONS_ERROR) while it was served fewer stopped
 *   short of it. Exact: the served count is the gateway's, the budget is the run's config.
 * - `retry` (probes.md §11): in mock mode the gateway answers a served request at once and in
 *   full, and sends a fault only when a probe asks it to — a faulted attempt is never served. So
 *   a leg that sends a body the gateway has already served it, unchanged, retried a success (or
 *   threw the reply away and asked again): no fault asked for that call. Live, a client may give
 *   up on a slow reply the proxy still relays, so the rule is mock-only.
 *
 * What stays probe-only, and why: the request timeout and a retry after a non-retryable status
 * need a gateway that stalls or faults, which a bench never asks its gateway for.
 */
import { isDeepStrictEqual } from "node:util";
import { MAX_ITERATIONS_ERROR } from "../../contract/texts.ts";
import type { Rule } from "./types.ts";
import { messages, type Body } from "./wire.ts";

/** The 1-based index (within the item) of each leg's first request, so a violation can point at one. */
function firstRequestOf(legs: readonly { readonly requests: readonly Body[] }[]): number[] {
  const out: number[] = [];
  let n = 0;
  for (const leg of legs) {
    out.push(n + 1);
    n += leg.requests.length;
  }
  return out;
}

export const LIMIT_RULES: readonly Rule[] = [
  {
    id: "iteration-cap",
    summary: "no leg is served more LLM calls than max_tool_iterations, and a leg that reports the cap's error was served exactly that many",
    item: (item, lane) =>
      item.legs.flatMap((leg, i) => {
        const cap = lane.maxToolIterations;
        const served = leg.served.llm_calls;
        if (served > cap) return [{ leg: i + 1, detail: `served ${served} LLM calls in one leg with max_tool_iterations = ${cap} (at most ${cap})` }];
        if (leg.result?.error === MAX_ITERATIONS_ERROR && served !== cap) {
          return [{ leg: i + 1, detail: `reported ${JSON.stringify(MAX_ITERATIONS_ERROR)} after ${served} served LLM call(s): the budget is ${cap}` }];
        }
        return [];
      }),
  },
  {
    id: "retry",
    summary: "mock mode: no leg sends a request again, unchanged, once the gateway has served it (a retry answers a fault, and a faulted attempt is never served)",
    item: (item, lane) => {
      if (lane.mode !== "mock") return [];
      const starts = firstRequestOf(item.legs);
      return item.legs.flatMap((leg, i) => {
        // Bodies of one conversation grow by at least the served reply: only equal lengths can repeat.
        const byLength = new Map<number, number[]>();
        const out: { leg: number; request: number; detail: string }[] = [];
        leg.requests.forEach((body, j) => {
          const n = messages(body).length;
          const earlier = byLength.get(n) ?? [];
          const again = earlier.find((k) => isDeepStrictEqual(leg.requests[k], body));
          if (again !== undefined) {
            out.push({ leg: i + 1, request: starts[i]! + j, detail: `sends request ${starts[i]! + again} of the item again, unchanged, after the gateway served it` });
          }
          byLength.set(n, [...earlier, j]);
        });
        return out;
      });
    },
  },
];
