/**
 * What the spill section's gateway process (spill-gateway.ts) and the benchmark say to each other
 * over IPC. Both sides hash bodies the same way, so that "read back equal" compares like with like.
 */
import { createHash } from "node:crypto";
import type { RecorderMemory } from "../../orchestrator/gateway/index.ts";

export interface Mem {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  recorder: RecorderMemory;
}

/** The commands the benchmark sends; the gateway process answers each with one message. */
export type SpillCommand = "held" | "mem" | "verify" | "stop";

export type FromGateway = { url: string; mem: Mem } | { mem: Mem } | { held: number } | { hashes: string[]; readMs: number; mem: Mem } | { left: string[] };

export const sha = (b: string | Buffer): string => createHash("sha256").update(b).digest("hex");
