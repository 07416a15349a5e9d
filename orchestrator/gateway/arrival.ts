/**
 * When a request started, as early as this process can vouch for it without trusting the worker.
 * The provider-timeout rule (run/provider-faults.ts) compares how long a worker waited with the
 * run's request timeout, from the request's start to the worker's hang-up; a start noted late makes
 * an honest worker's full wait look short and its hang charged to it.
 *
 * A request's start is when its bytes were read (the request handler runs in the same turn). A
 * connection the sandbox bridge hands over ({@link connectionMark} at the accept) can say more for
 * its first request: if the event loop went straight from the accept to the read — the next turn,
 * with no wait for I/O in between — the worker's bytes may have been waiting from the accept on,
 * behind work of the orchestrator's own (a loaded loop, a starved process), so the start is the
 * accept, plus any time the loop did wait. If the loop had to wait or turned more than once, the
 * worker sent later (a connection opened early and left idle), and the read is the start. A worker
 * can gain at most the orchestrator's own busy time after the accept, never time it chose to wait.
 *
 * The read time is kept beside it (an attempt's `at` and `startedAt`): a hold or a stall the
 * gateway imposes starts at the read, and the transport probe times those from it.
 */
import { performance } from "node:perf_hooks";
import { nowMs } from "./recorder.ts";

export interface ConnectionMark {
  readonly at: number;
  /** libuv's iteration count and cumulative idle (waiting in poll) time, in ms, at the accept. */
  readonly loops: number;
  readonly idleMs: number;
}

interface LoopClock {
  now(): number;
  loops(): number;
  idleMs(): number;
}

const PROCESS_LOOP: LoopClock = {
  now: nowMs,
  loops: () => performance.nodeTiming.uvMetricsInfo.loopCount,
  idleMs: () => performance.eventLoopUtilization().idle,
};

/** The moment a connection was accepted. */
export function connectionMark(clock: LoopClock = PROCESS_LOOP): ConnectionMark {
  return { at: clock.now(), loops: clock.loops(), idleMs: clock.idleMs() };
}

/** The start of a request read now: see the module comment; `accepted` only for a connection's first request. */
export function requestStart(accepted: ConnectionMark | undefined, clock: LoopClock = PROCESS_LOOP): number {
  const now = clock.now();
  if (accepted === undefined) return now;
  const turns = clock.loops() - accepted.loops;
  if (turns > 1) return now;
  return Math.min(now, accepted.at + Math.max(0, clock.idleMs() - accepted.idleMs));
}
