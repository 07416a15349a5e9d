/**
 * What a further item costs a worker that carries several at once (`--items-per-worker`, seats;
 * issue 23 asks where the memory goes per framework): the adapter's arena run twice in mock mode,
 * one item a worker one at a time, then SEATS items at once in one worker, every gateway answer
 * held HOLD_SECONDS so the items in a worker overlap. The largest worker VmHWM of each run
 * (peak-rss.ts); per further seat = (peak with SEATS − peak with one) ÷ (SEATS − 1), never below 0.
 * Only adapters whose workers take seats (the Node host); a Python worker carries one item.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Arena } from "../../orchestrator/arena/schemas.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { runArenas } from "../../orchestrator/run/index.ts";
import { NODE_HOST_MARKS, PeakRssSampler, type PeakReport } from "./peak-rss.ts";

export const SEATS = 8;
const HOLD_SECONDS = 0.1;

export interface SeatRss {
  readonly oneBytes: number;
  readonly seatedBytes: number;
  /** Bytes each seat past the first added to the worker's peak. */
  readonly perSeatBytes: number;
  /** Worker processes the seated run started (1 unless the adapter refused to share). */
  readonly seatedWorkers: number;
}

async function peakOf(adapter: { name: string; module: string; variant: boolean }, arena: Arena, corpusPath: string, seats: number) {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-costs-seats-"));
  const sampler = new PeakRssSampler({ intervalMs: 50, match: NODE_HOST_MARKS });
  await sampler.start();
  let peak: PeakReport;
  let outcome: Awaited<ReturnType<typeof runArenas>>;
  try {
    outcome = await runArenas({
      arenas: [arena],
      adapters: [{ ...adapter, ...(adapter.variant ? { onlyArenas: [arena.id] } : {}) }],
      config: DEFAULTS,
      corpusPath,
      concurrency: seats,
      itemsPerWorker: seats,
      gatewayFaults: { holdSeconds: HOLD_SECONDS },
      dirs: { logDir: path.join(root, "logs"), checkpointRoot: path.join(root, "ck") },
    });
  } finally {
    peak = await sampler.stop();
    rmSync(root, { recursive: true, force: true });
  }
  // A figure from a run whose items did not run is no figure: say so rather than print it.
  const items = outcome.records.flatMap((r) => r.frameworks.flatMap((f) => f.items));
  if (items.length === 0 || items.some((i) => i.error_class === "infra")) throw new Error(`seat-rss: ${adapter.name} on ${arena.id} at ${seats} a worker did not run cleanly`);
  return peak;
}

export async function seatRss(adapter: { name: string; module: string; variant: boolean }, arena: Arena, corpusPath: string): Promise<SeatRss> {
  if (arena.durable) throw new Error(`seat-rss: ${arena.id} is durable; a durable item always takes a worker alone`);
  const one = await peakOf(adapter, arena, corpusPath, 1);
  const seated = await peakOf(adapter, arena, corpusPath, SEATS);
  return {
    oneBytes: one.peakBytes,
    seatedBytes: seated.peakBytes,
    perSeatBytes: Math.max(0, (seated.peakBytes - one.peakBytes) / (SEATS - 1)),
    seatedWorkers: seated.processes,
  };
}
