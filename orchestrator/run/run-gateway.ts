/**
 * The gateway an arena run talks to: in mock mode our own scripted gateway on loopback (one per
 * arena, with the arena's resolved tools); in live mode the configured provider, untouched.
 */
import type { Arena } from "../arena/schemas.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { createGateway, type Gateway } from "../gateway/index.ts";
import { namesFor } from "../../workers/tools/registry.ts";

export interface RunGateway {
  /** Base URL for one worker; mock mode tags its traffic so served usage can be attributed. */
  baseUrlFor(tag: string): string;
  /** The mock gateway, for probes that read its records (undefined in live mode). */
  readonly mock?: Gateway;
  stop(): Promise<void>;
}

export async function startRunGateway(arena: Arena, config: ArenaConfig): Promise<RunGateway> {
  if (config.mode === "live") {
    return { baseUrlFor: () => config.baseUrl, stop: async () => {} };
  }
  const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
  await gateway.start();
  return { baseUrlFor: (tag) => gateway.baseUrlFor(tag), mock: gateway, stop: () => gateway.stop() };
}
