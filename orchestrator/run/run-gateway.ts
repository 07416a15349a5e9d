/**
 * The gateway an arena run talks to, one per arena, on loopback in both modes: in mock mode our
 * scripted gateway (with the arena's resolved tools); in live mode the recording proxy in front of
 * the configured provider. Either way workers get tagged `http://127.0.0.1:<port>/t/<tag>.<token>/v1`
 * base URLs, every request is recorded under its tag, and a request without its tag's token is
 * refused (gateway/identity.ts), so served usage and the witness work the same.
 */
import type { Arena } from "../arena/schemas.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { createGateway, createProxy, mintWorkerKey, nowMs, type Gateway, type GatewayOptions, type IdentityPolicy, type RefusedRequest, type ServedUsage } from "../gateway/index.ts";
import { bridgedSender } from "../supervisor/sandbox/bridge.ts";
import { DEFAULT_REQUEST_TIMEOUT_SECONDS } from "../gateway/options.ts";
import { namesFor } from "../../contract/tools/registry.ts";
import { toJs } from "@agentic-arena/py-semantics";
import type { LegWatch } from "./drive.ts";
import { legAttempts } from "./provider-faults.ts";
import type { Body } from "../witness/wire.ts";

/** Transport behaviour a probe may inject into the mock gateway (gateway.md §1, §9); live mode ignores it. */
export type GatewayFaults = Pick<GatewayOptions, "faults" | "retryAfter" | "stallSeconds" | "holdSeconds" | "forwardContext">;

export interface RunGateway {
  /** Base URL for one worker; the tag in its path attributes the worker's traffic. */
  baseUrlFor(tag: string): string;
  /**
   * The API key to hand workers: in live mode the run's worker key (the proxy holds the real one
   * and refuses any other); in mock mode the configured placeholder, which the mock ignores.
   */
  readonly apiKey: string;
  /** What the gateway served under `tag` so far: the ground truth for usage. */
  servedUsage(tag: string): ServedUsage | undefined;
  /**
   * The witness around one leg of the worker tagged `tag`: a worker runs one leg at a time, so
   * what its tag received in between is that leg's.
   */
  readonly watchLeg?: (tag: string) => LegWatch;
  /**
   * What arrived outside every leg: per tag starting with `prefix`, the attempts no leg's watch
   * claimed, and the requests refused for their identity whose sender the bridge named as
   * `senderPrefix…` (gateway/identity.ts).
   */
  offLeg?(prefix: string, senderPrefix: string): { readonly unclaimed: readonly { tag: string; attempts: number }[]; readonly refused: readonly RefusedRequest[] };
  /** Let attempts still in flight settle before the records are read (the workers are gone). */
  settle?(maxMs: number): Promise<void>;
  /** The mock gateway, for probes that read its records (undefined in live mode). */
  readonly mock?: Gateway;
  /** The live proxy, whose recorder holds the run's provider traffic (undefined in mock mode). */
  readonly proxy?: Gateway;
  stop(): Promise<void>;
}

/**
 * One worker key per run: keyed by the run's configuration object, which the CLI hands to
 * `runArenas` and which reaches every arena's gateway unchanged, so the CLI can register the key
 * for redaction (`registerSecrets([config.apiKey, workerKeyFor(config)])`) before the run starts.
 */
const runKeys = new WeakMap<ArenaConfig, string>();

export function workerKeyFor(config: ArenaConfig): string {
  let key = runKeys.get(config);
  if (key === undefined) runKeys.set(config, (key = mintWorkerKey()));
  return key;
}

/** A run's gateways take requests only from the workers they issued URLs to; the bridge names a sealed sender. */
const RUN_IDENTITY: IdentityPolicy = { required: true, senderOf: bridgedSender };

export async function startRunGateway(
  arena: Arena,
  config: ArenaConfig,
  faults: GatewayFaults = {},
  /** Where the recorder may spill request bodies beyond its memory budget (the run folder). */
  spillDir?: string,
): Promise<RunGateway> {
  if (config.mode === "live") {
    const workerKey = workerKeyFor(config);
    const proxy = createProxy({
      upstreamBaseUrl: config.baseUrl,
      apiKey: config.apiKey,
      workerKey,
      // Never the shorter limit: the adapter's own per-attempt bound is the one the probes check.
      requestTimeoutSeconds: Math.max(DEFAULT_REQUEST_TIMEOUT_SECONDS, config.requestTimeoutS),
      identity: RUN_IDENTITY,
      ...(spillDir ? { spillDir } : {}),
    });
    await proxy.start();
    return { ...witnessed(proxy, config.requestTimeoutS), apiKey: workerKey, proxy };
  }
  const gateway = createGateway({ ...faults, script: arena.script, arenaTools: namesFor(arena.declaredTools), identity: RUN_IDENTITY, ...(spillDir ? { spillDir } : {}) });
  await gateway.start();
  return { ...witnessed(gateway, config.requestTimeoutS), apiKey: config.apiKey, mock: gateway };
}

/** What both modes share: tagged URLs, usage read from the recorder, the witness around a leg. */
function witnessed(gateway: Gateway, requestTimeoutS: number): Pick<RunGateway, "baseUrlFor" | "servedUsage" | "watchLeg" | "offLeg" | "settle" | "stop"> {
  /** Attempts each tag's legs claimed (arrived while one of its legs was watched). */
  const claimed = new Map<string, number>();
  return {
    baseUrlFor: (tag) => gateway.baseUrlFor(tag),
    servedUsage: (tag) => gateway.recorder.servedUsageFor(tag),
    offLeg: (prefix, senderPrefix) => ({
      unclaimed: gateway.recorder.tags
        .filter((t) => t.startsWith(prefix))
        .map((tag) => ({ tag, attempts: gateway.recorder.attemptCount(tag) - (claimed.get(tag) ?? 0) }))
        .filter((u) => u.attempts > 0),
      refused: gateway.refused.filter((r) => r.sender?.startsWith(senderPrefix) || r.heldBy?.startsWith(prefix)),
    }),
    watchLeg: (tag) => {
      const served = gateway.recorder.servedUsageFor(tag);
      const seen = gateway.recorder.servedCount(tag);
      const attemptsBefore = gateway.recorder.attemptCount(tag);
      return {
        end: () => {
          claimed.set(tag, (claimed.get(tag) ?? 0) + gateway.recorder.attemptCount(tag) - attemptsBefore);
          const now = gateway.recorder.servedUsageFor(tag);
          const records = gateway.recorder.servedFrom(tag, seen);
          const requests = records.requests;
          const bodies = requests.map((r) => r.plain as Body);
          const replies = new Map(records.responseMessages.map((m) => [m.attempt, toJs(m.message)]));
          const usage = new Map(records.served.map((s) => [s.attempt, { prompt_tokens: s.prompt_tokens, completion_tokens: s.completion_tokens }]));
          const attempts = legAttempts(gateway.recorder.attemptsFrom(tag, attemptsBefore), new Set(usage.keys()), { now: nowMs(), requestTimeoutS });
          return {
            served: {
              prompt_tokens: now.prompt_tokens - served.prompt_tokens,
              completion_tokens: now.completion_tokens - served.completion_tokens,
              llm_calls: now.llm_calls - served.llm_calls,
            },
            requests: bodies,
            attempts,
            exchanges: requests.map((r, i) => {
              const served = usage.get(r.attempt);
              return { request: bodies[i]!, reply: replies.get(r.attempt) ?? null, ...(served ? { usage: served } : {}) };
            }),
          };
        },
      };
    },
    settle: (maxMs) => settleAttempts(gateway.recorder, maxMs),
    stop: () => gateway.stop(),
  };
}

/**
 * Wait (at most `maxMs`) until no attempt is still pending. The workers are gone by then, but a
 * client's close travels through the sandbox bridge's sockets and may not have reached the gateway
 * yet; a snapshot taken before would record an abandoned attempt as never given up.
 */
async function settleAttempts(recorder: { readonly pendingAttempts: number }, maxMs: number): Promise<void> {
  for (const until = Date.now() + maxMs; recorder.pendingAttempts > 0 && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 5));
  }
}
