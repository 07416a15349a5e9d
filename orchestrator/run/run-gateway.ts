/**
 * The gateway an arena run talks to: in mock mode our own scripted gateway on loopback (one per
 * arena, with the arena's resolved tools); in live mode the configured provider, untouched.
 */
import type { Arena } from "../arena/schemas.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { createGateway, type Gateway, type GatewayOptions, type ServedUsage } from "../gateway/index.ts";
import { namesFor } from "../../workers/tools/registry.ts";
import { toJs } from "../../workers/py/index.ts";
import type { LegWatch } from "./drive.ts";
import type { Body } from "../witness/wire.ts";

/** Transport behaviour a probe may inject into the mock gateway (gateway.md §1, §9). */
export type GatewayFaults = Pick<GatewayOptions, "faults" | "retryAfter" | "stallSeconds" | "forwardContext">;

export interface RunGateway {
  /** Base URL for one worker; mock mode tags its traffic so served usage can be attributed. */
  baseUrlFor(tag: string): string;
  /** What the gateway served under `tag` so far (mock mode only): the ground truth for usage. */
  servedUsage(tag: string): ServedUsage | undefined;
  /**
   * The witness around one leg of the worker tagged `tag` (undefined where nothing is recorded):
   * a worker runs one leg at a time, so what its tag received in between is that leg's.
   */
  readonly watchLeg?: (tag: string) => LegWatch;
  /** The mock gateway, for probes that read its records (undefined in live mode). */
  readonly mock?: Gateway;
  stop(): Promise<void>;
}

export async function startRunGateway(
  arena: Arena,
  config: ArenaConfig,
  faults: GatewayFaults = {},
  /** Where the recorder may spill request bodies beyond its memory budget (the run folder). */
  spillDir?: string,
): Promise<RunGateway> {
  if (config.mode === "live") {
    return { baseUrlFor: () => config.baseUrl, servedUsage: () => undefined, stop: async () => {} };
  }
  const gateway = createGateway({ ...faults, script: arena.script, arenaTools: namesFor(arena.declaredTools), ...(spillDir ? { spillDir } : {}) });
  await gateway.start();
  return {
    baseUrlFor: (tag) => gateway.baseUrlFor(tag),
    servedUsage: (tag) => gateway.recorder.servedUsageFor(tag),
    watchLeg: (tag) => {
      const served = gateway.recorder.servedUsageFor(tag);
      const seen = gateway.recorder.records(tag).requests.length;
      return {
        end: () => {
          const now = gateway.recorder.servedUsageFor(tag);
          return {
            served: {
              prompt_tokens: now.prompt_tokens - served.prompt_tokens,
              completion_tokens: now.completion_tokens - served.completion_tokens,
              llm_calls: now.llm_calls - served.llm_calls,
            },
            requests: gateway.recorder.records(tag).requests.slice(seen).map((r) => toJs(r.body) as Body),
          };
        },
      };
    },
    mock: gateway,
    stop: () => gateway.stop(),
  };
}
