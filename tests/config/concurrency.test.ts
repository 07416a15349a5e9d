/**
 * boundConcurrency with injected memory figures: the bound is the largest number of items in
 * flight whose workers — every adapter's pool, plus two warm spares per item in flight on each
 * durable arena — fit in 75% of what is available.
 */
import { describe, expect, it } from "vitest";
import {
  MEMORY_SHARE,
  PER_WORKER_BYTES,
  boundConcurrency,
  poolDemands,
  workersAlive,
  type PoolDemand,
} from "../../orchestrator/config/concurrency.ts";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The repo's default bench: seven arenas (durable_state durable), three adapters plus three multi_agent variants. */
const ARENAS = [
  { id: "tool_use", durable: false, items: 18 },
  { id: "rag", durable: false, items: 18 },
  { id: "structured_output", durable: false, items: 16 },
  { id: "resilience", durable: false, items: 10 },
  { id: "human_in_the_loop", durable: false, items: 14 },
  { id: "durable_state", durable: true, items: 10 },
  { id: "multi_agent", durable: false, items: 12 },
];
const BENCH_ADAPTERS = [{}, { onlyArenas: ["multi_agent"] }, {}, { onlyArenas: ["multi_agent"] }, {}, { onlyArenas: ["multi_agent"] }];

describe("workersAlive and poolDemands", () => {
  it("describes each adapter's pool from the arenas it runs", () => {
    expect(poolDemands(ARENAS, [{}, { onlyArenas: ["multi_agent"] }, { onlyArenas: ["nowhere"] }], 2)).toEqual([
      { itemRuns: 196, durableItemRuns: [20] },
      { itemRuns: 24, durableItemRuns: [] },
    ]);
  });

  it("counts a pool's workers up to its items, and a durable arena's spares up to 2 per slot and its items", () => {
    const pool: PoolDemand = { itemRuns: 100, durableItemRuns: [13] };
    expect(workersAlive(1, [pool])).toBe(1 + 2);
    expect(workersAlive(5, [pool])).toBe(5 + 10);
    expect(workersAlive(50, [pool])).toBe(50 + 13);
    expect(workersAlive(1000, [pool])).toBe(100 + 13);
    expect(workersAlive(10, [{ itemRuns: 0, durableItemRuns: [] }])).toBe(1); // the build still takes a worker
  });

  it("puts the incident's bench --concurrency 1000 at a few hundred workers (281 were seen)", () => {
    expect(workersAlive(1000, poolDemands(ARENAS, BENCH_ADAPTERS, 1))).toBe(3 * (98 + 10) + 3 * 12);
  });
});

describe("boundConcurrency", () => {
  it("leaves a request that fits alone", () => {
    const out = boundConcurrency(8, { adapters: 1, durable: false, availableBytes: 16 * GIB, perWorkerBytes: 256 * MIB });
    expect(out).toEqual({ concurrency: 8, clamped: false });
  });

  it("clamps the incident's bench --concurrency 1000 to what fits, and says why in one line", () => {
    // 0.75 × 9.1 GiB = 6988.8 MiB = 38.8 workers of 180 MiB. workers(c) = 3·(c + min(2c, 10)) + 3·min(c, 12):
    // c = 4 → 3·12 + 12 = 48 is too many; c = 3 → 3·9 + 9 = 36 fits.
    const out = boundConcurrency(1000, { adapters: poolDemands(ARENAS, BENCH_ADAPTERS, 1), availableBytes: 9.1 * GIB, perWorkerBytes: 180 * MIB });
    expect(out).toEqual({
      concurrency: 3,
      clamped: true,
      message:
        "--concurrency 1000 clamped to 3: up to 36 workers can be alive at 3 in flight (360 at 1000; 6 adapter pools, durable spares included), " +
        "each needs up to ~180 MiB, and 9.1 GiB is available (75% for workers)",
    });
  });

  it("with only a count of adapters, assumes every pool can fill every slot, with 2 spares per durable arena", () => {
    const base = { adapters: 1, availableBytes: 12 * GIB, perWorkerBytes: 300 * MIB };
    // 0.75 × 12 GiB = 9216 MiB = 30.72 workers of 300 MiB.
    expect(boundConcurrency(1000, { ...base, durable: false }).concurrency).toBe(30);
    expect(boundConcurrency(1000, { ...base, durable: true }).concurrency).toBe(10); // 3 workers per slot
    expect(boundConcurrency(1000, { ...base, durable: 2 }).concurrency).toBe(6); // 5 per slot
    expect(boundConcurrency(1000, { ...base, adapters: 3, durable: true }).concurrency).toBe(3); // 9 per slot
  });

  it("does not clamp a run whose pools cannot fill the slots anyway", () => {
    // One adapter on durable_state alone: at most 10 + 10 workers however many slots.
    const pools = poolDemands(ARENAS.filter((a) => a.durable), [{}], 1);
    const budget = { adapters: pools, availableBytes: 8 * GIB, perWorkerBytes: 300 * MIB };
    expect(boundConcurrency(1000, budget)).toEqual({ concurrency: 1000, clamped: false }); // 20.48 fit
    expect(boundConcurrency(1000, { ...budget, availableBytes: 4 * GIB }).concurrency).toBe(3); // 10.24 fit: 3 + 6
  });

  it("with a count of adapters, `items` caps what each pool (and each durable arena's spares) can hold", () => {
    const tight = { adapters: 1, durable: true, availableBytes: 4 * GIB, perWorkerBytes: 300 * MIB }; // 10.24 workers fit
    expect(boundConcurrency(50, tight).concurrency).toBe(3); // 3 + 6
    expect(boundConcurrency(50, { ...tight, items: 13 }).concurrency).toBe(3); // still 3 + 6: 4 + 8 does not fit
    expect(boundConcurrency(50, { ...tight, items: 5 })).toEqual({ concurrency: 50, clamped: false }); // 5 + 5 fit
  });

  it("never goes below one item in flight, and says when even that may not fit", () => {
    const out = boundConcurrency(4, { adapters: 6, durable: true, availableBytes: 1 * GIB, perWorkerBytes: 300 * MIB });
    expect(out.concurrency).toBe(1);
    expect(out.clamped).toBe(true);
    expect(out.message).toMatch(/^--concurrency 4 clamped to 1: up to 18 workers can be alive at 1 in flight \(72 at 4; .*; even that may not fit$/);
    expect(out.message).toContain("1.0 GiB is available");
  });

  it("names the value as told (e.g. the default, not a flag) and shows small memory in MiB", () => {
    const out = boundConcurrency(2, { adapters: 2, availableBytes: 300 * MIB, perWorkerBytes: 200 * MIB, label: "the default concurrency" });
    expect(out.message).toBe(
      "the default concurrency 2 clamped to 1: up to 2 workers can be alive at 1 in flight (4 at 2; 2 adapter pools), " +
        "each needs up to ~200 MiB, and 300 MiB is available (75% for workers); even that may not fit",
    );
  });

  it("defaults to the measured per-worker figure and the process's available memory", () => {
    expect(PER_WORKER_BYTES).toBeGreaterThanOrEqual(288 * MIB); // the largest one-pass peak measured
    const fits = (bytes: number) => Math.max(1, Math.floor((MEMORY_SHARE * bytes) / PER_WORKER_BYTES));
    // Available memory moves between calls: the result must lie between what was seen before and after.
    const before = process.availableMemory();
    const { concurrency } = boundConcurrency(1_000_000, { adapters: 1 });
    const after = process.availableMemory();
    expect(concurrency).toBeGreaterThanOrEqual(fits(Math.min(before, after)));
    expect(concurrency).toBeLessThanOrEqual(fits(Math.max(before, after)));
  });

  it("refuses a request that is not a whole number ≥ 1 (parse flags with parseCount first)", () => {
    expect(() => boundConcurrency(0, { adapters: 1 })).toThrow(RangeError);
    expect(() => boundConcurrency(2.5, { adapters: 1 })).toThrow(RangeError);
  });
});
