/**
 * The setups of probes.md §11, named `transport:<case>`: one inline arena under gateway faults.
 * Status setups (`healthy`, `bad-request`, `429`, …) answer at once or fault; the timing setups
 * stall every served attempt for STALL_S and give the client a request timeout T drawn per run
 * (canary.ts), then 2T.
 *
 * The timing pair runs alone in its runner (the gateway stamps arrival and disconnect on this
 * process's event loop, which other runs' set-up work would delay), after the same subject's
 * healthy run has warmed it up; and since hold times are wall-clock on a shared machine, a pair
 * whose reading breaks a bound is taken once more and the second reading is judged, the first
 * shown with it. A mis-wired timeout fails every time; a scheduling hiccup does not repeat on cue.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { drawTimeout, PROBE_SEED } from "./canary.ts";
import { drawTransport } from "./draws.ts";
import { timeoutDoublesViolations, timeoutHonouredViolations } from "./judges/transport.ts";
import { adapterOf, single, toMany, type SetupPlan, type SetupRunOptions } from "./plan.ts";
import type { SetupName } from "./setups.ts";
import { wireRunMany, type InlineArena, type WireRun } from "./wire.ts";

export const STALL_S = 20;
/** A Retry-After unlike any default backoff, so "honoured" is visible in the gaps. */
export const RETRY_AFTER_S = 2;
/** This run's request timeout T for the timing pair (and 2T). */
export const TIMEOUT = drawTimeout();

/** The transport arena of probes.md §11 (ids, prompt, input and answer drawn with `seed`: draws.ts). */
export function transportArena(seed: string): InlineArena {
  const t = drawTransport(seed);
  return {
    id: t.arenaId,
    tools: ["search"],
    prompt: t.prompt,
    items: [{ id: t.measured.id, input: t.measured.input }],
    script: { default: { turns: [{ content: t.answer }] } },
  };
}

/**
 * The timing runs' arena: the same, with a warm-up item first. The gateway answers the run's first
 * attempt with an injected 400 (never retried — the bad-request case gates that), so every client
 * has made one request before the measured one. Without it a cold HTTP stack spends part of the
 * first attempt's budget before the request reaches the gateway, which would then see a hold
 * shorter than the budget the client actually honoured.
 */
export function hangArena(seed: string): InlineArena {
  const t = drawTransport(seed);
  const base = transportArena(seed);
  return { ...base, id: t.hangArenaId, items: [{ id: t.warmUp.id, input: t.warmUp.input }, ...base.items] };
}

/** Gateway faults per status setup; `finding` marks the rows of the (not gated) finding table. */
export const STATUS_SETUPS = {
  healthy: { faults: [], retryAfter: null, finding: false },
  "bad-request": { faults: [400, 200], retryAfter: null, finding: false },
  /** Gated "transient rate limit", and the finding row `[429]`. */
  "429": { faults: [429, 200], retryAfter: null, finding: true },
  "429+retry-after": { faults: [429, 200], retryAfter: RETRY_AFTER_S, finding: true },
  "429x3": { faults: [429, 429, 429], retryAfter: null, finding: true },
  "429x3+retry-after": { faults: [429, 429, 429], retryAfter: RETRY_AFTER_S, finding: true },
  // The gateway sends Retry-After on 429/503 only, so a 500 "with retryAfter" is this same run.
  "500": { faults: [500], retryAfter: null, finding: true },
  /** The instrument self-test (baseline): a faulted attempt is not served and consumes no turn. */
  "429x2": { faults: [429, 429, 200], retryAfter: null, finding: false },
} as const satisfies Record<string, { faults: readonly number[]; retryAfter: number | null; finding: boolean }>;
export type StatusSetup = keyof typeof STATUS_SETUPS;

/** Status runs answer at once: the timeout only bounds a run that went wrong. */
export const STATUS_TIMEOUT_S = 10;
const ITERATIONS = 6;

export function statusOptions(name: StatusSetup, seed: string = PROBE_SEED): SetupRunOptions {
  const s = STATUS_SETUPS[name];
  return {
    seed,
    arena: transportArena(seed),
    config: { requestTimeoutS: STATUS_TIMEOUT_S, maxToolIterations: ITERATIONS },
    gatewayFaults: { faults: [...s.faults], retryAfter: s.retryAfter, stallSeconds: 0 },
  };
}

/** A timing run: the warm-up item's attempt takes the injected 400, every later one stalls. */
export function hangOptions(timeoutS: number, legDeadlineMs?: number, seed: string = PROBE_SEED): SetupRunOptions {
  return {
    seed,
    arena: hangArena(seed),
    config: { requestTimeoutS: timeoutS, maxToolIterations: ITERATIONS },
    gatewayFaults: { faults: [400], retryAfter: null, stallSeconds: STALL_S },
    ...(legDeadlineMs ? { legDeadlineMs } : {}),
  };
}

export const HANG_T = "transport:hang-T";
export const HANG_2T = "transport:hang-2T";
/** The honoured case cut short by a 5 s leg deadline (a client that never gives up would wait out the stall). */
export const HANG_T_CUT = "transport:hang-T:cut";

function hangPair(seed: string): SetupPlan {
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const timeout = drawTimeout(seed);
  const runs = [toMany(hangOptions(timeout.seconds, undefined, seed)), toMany(hangOptions(timeout.doubled, undefined, seed))] as const;
  const measure = (subject: Parameters<SetupPlan["run"]>[0]) => async () => {
    loopDelay.reset();
    loopDelay.enable();
    try {
      const adapter = adapterOf(subject);
      const [t1, t2] = (await Promise.all(runs.map((r) => wireRunMany({ adapter, ...r })))).map((r) => r[0]!) as [WireRun, WireRun];
      return { t1, t2, off: readingOff(t1, t2, timeout.seconds) };
    } finally {
      loopDelay.disable();
    }
  };
  const delay = () => `event-loop delay while measuring: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(0)} ms, max ${(loopDelay.max / 1e6).toFixed(0)} ms`;
  return {
    group: "transport:hang",
    runs,
    run: async (subject, ctx) => {
      await ctx.setup("transport:healthy").catch(() => undefined);
      let m = await ctx.alone(measure(subject));
      let note = `T = ${timeout.seconds} s; ${delay()}`;
      if (m.off.length > 0 && m.t1.record.available) {
        const first = m.off.join("; ");
        m = await ctx.alone(measure(subject));
        note = `T = ${timeout.seconds} s; ${delay()}; measured twice, first: ${first}`;
      }
      return { [HANG_T]: { ...m.t1, note }, [HANG_2T]: { ...m.t2, note } };
    },
  };
}

/** What the judges will say of a pair: anything at all means take it again. */
function readingOff(t1: WireRun, t2: WireRun, timeoutS: number): string[] {
  return [...timeoutHonouredViolations(t1, timeoutS, STALL_S), ...timeoutDoublesViolations(t1, t2)];
}

/** The plan of a §11 setup, or undefined for a name of another family. */
export function transportPlan(name: SetupName, seed: string = PROBE_SEED): SetupPlan | undefined {
  if (name === HANG_T || name === HANG_2T) return hangPair(seed);
  if (name === HANG_T_CUT) return single(name, hangOptions(drawTimeout(seed).seconds, 5_000, seed), true);
  const [family, status, ...rest] = name.split(":");
  if (family !== "transport" || rest.length > 0 || !(status! in STATUS_SETUPS)) return undefined;
  return single(name, statusOptions(status as StatusSetup, seed));
}
