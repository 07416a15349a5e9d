/**
 * boundConcurrency with injected memory figures: the bound is the largest number of items in
 * flight whose workers — one per slot, plus two warm spares per item in flight on each durable
 * lane that can be running — fit in 75% of what is available, each at its adapter's measured size.
 */
import { describe, expect, it } from "vitest";
import {
  MEMORY_SHARE,
  LIVE_ITEMS_PER_CORE,
  MAX_CONCURRENCY,
  PER_WORKER_BYTES,
  SEAT_BYTES,
  boundConcurrency,
  defaultConcurrency,
  poolDemands,
  workersAlive,
  type PoolDemand,
} from "../../orchestrator/config/concurrency.ts";
import { workerBytesFor } from "../../orchestrator/config/worker-rss.ts";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { seatsFor } from "../../orchestrator/config/items-per-worker.ts";

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

/** Every catalogue adapter, as `--framework all` selects them (variants only on their arenas). */
const ALL_ADAPTERS = ADAPTER_CATALOG.map((e) => ({ name: e.name, ...(e.arenas ? { onlyArenas: e.arenas } : {}) }));

describe("workersAlive and poolDemands", () => {
  it("describes each adapter's pool from the arenas it runs, at its measured worker size", () => {
    expect(poolDemands(ARENAS, [{ name: "vanilla" }, { name: "langgraph-multi", onlyArenas: ["multi_agent"] }, { onlyArenas: ["nowhere"] }], 2)).toEqual([
      { itemRuns: 196, durableItemRuns: [20], workerBytes: workerBytesFor("vanilla") },
      { itemRuns: 24, durableItemRuns: [], workerBytes: workerBytesFor("langgraph-multi") },
    ]);
  });

  it("counts the slots up to the items in flight, and a durable lane's spares up to 2 per slot and its items", () => {
    const pool: PoolDemand = { itemRuns: 100, durableItemRuns: [13], workerBytes: 100 * MIB };
    const count = (c: number, pools: readonly PoolDemand[]) => {
      const w = workersAlive(c, pools);
      return w.slots + w.spares;
    };
    expect(count(1, [pool])).toBe(1 + 2);
    expect(count(5, [pool])).toBe(5 + 10);
    expect(count(50, [pool])).toBe(50 + 13);
    expect(count(1000, [pool])).toBe(100 + 13);
    expect(workersAlive(5, [pool]).bytes).toBe(15 * 100 * MIB);
    expect(count(10, [{ itemRuns: 0, durableItemRuns: [] }])).toBe(1); // the build still takes a worker
  });

  it("charges idle workers to free slots, not to every pool: six pools at 3 in flight hold 3 workers, not 18", () => {
    const pools = poolDemands(ARENAS.filter((a) => !a.durable), BENCH_ADAPTERS, 1);
    expect(pools).toHaveLength(6);
    expect(workersAlive(3, pools, 100 * MIB)).toEqual({ slots: 3, spares: 0, bytes: 300 * MIB });
  });

  it("fills the slots with the heaviest workers first, and charges the spares of the heaviest durable lanes that can run at once", () => {
    const heavy: PoolDemand = { itemRuns: 1, durableItemRuns: [10], workerBytes: 500 * MIB };
    const light: PoolDemand = { itemRuns: 100, durableItemRuns: [10], workerBytes: 100 * MIB };
    // c = 1: one slot (the heavy one) and one durable lane's 2 spares (the heavy lane).
    expect(workersAlive(1, [light, heavy])).toEqual({ slots: 1, spares: 2, bytes: 500 * MIB + 2 * 500 * MIB });
    // c = 3: heavy fills 1 slot (its one item run), light 2; both lanes run, 6 spares each.
    expect(workersAlive(3, [light, heavy])).toEqual({ slots: 3, spares: 12, bytes: 500 * MIB + 200 * MIB + 6 * 500 * MIB + 6 * 100 * MIB });
  });

  it("puts the incident's bench --concurrency 1000 at the bench's item runs plus its durable spares", () => {
    const w = workersAlive(1000, poolDemands(ARENAS, BENCH_ADAPTERS, 1));
    expect(w).toMatchObject({ slots: 3 * 98 + 3 * 12, spares: 3 * 10 });
  });
});

describe("boundConcurrency", () => {
  it("leaves a request that fits alone", () => {
    const out = boundConcurrency(8, { adapters: 1, durable: false, availableBytes: 16 * GIB, perWorkerBytes: 256 * MIB });
    expect(out).toEqual({ concurrency: 8, clamped: false });
  });

  it("runs the whole catalogue's bench as wide as the cores of this kind of machine (2 cores, ~17 GiB free), and wider", () => {
    const pools = poolDemands(ARENAS, ALL_ADAPTERS, 1);
    expect(pools.length).toBe(ADAPTER_CATALOG.length);
    expect(boundConcurrency(2, { adapters: pools, availableBytes: 17 * GIB })).toEqual({ concurrency: 2, clamped: false });
    expect(boundConcurrency(3, { adapters: pools, availableBytes: 17 * GIB })).toEqual({ concurrency: 3, clamped: false });
    // Past that the durable spares (2 per slot on each durable lane running) are what clamps.
    expect(boundConcurrency(8, { adapters: pools, availableBytes: 17 * GIB }).message).toMatch(/clamped to 3: memory — 88 workers \(8 in flight \+ 80 durable spares/);
  });

  it("clamps the incident's bench --concurrency 1000 to what fits, and says why in one line", () => {
    // 0.75 × 9.1 GiB = 6988.8 MiB = 38.8 workers of 180 MiB. workers(c) = c + min(c, 3 lanes) · min(2c, 10):
    // c = 13 → 13 + 30 = 43 is too many; c = 8 → 8 + 30 = 38 fits, c = 9 → 39 does not.
    const out = boundConcurrency(1000, { adapters: poolDemands(ARENAS, BENCH_ADAPTERS, 1), availableBytes: 9.1 * GIB, perWorkerBytes: 180 * MIB });
    expect(out).toEqual({
      concurrency: 8,
      clamped: true,
      message:
        "--concurrency 1000 clamped to 8: memory — 360 workers (330 in flight + 30 durable spares, ~63.3 GiB) could be alive at 1000 in flight, " +
        "38 workers (8 in flight + 30 durable spares, ~6.7 GiB) at 8, each adapter's worker at its measured size (orchestrator/config/worker-rss.json), " +
        "and 9.1 GiB is available (75% for workers)",
    });
  });

  it("with only a count of adapters, assumes every pool can fill every slot, with 2 spares per slot on each durable lane running", () => {
    const base = { adapters: 1, availableBytes: 12 * GIB, perWorkerBytes: 300 * MIB };
    // 0.75 × 12 GiB = 9216 MiB = 30.72 workers of 300 MiB.
    expect(boundConcurrency(1000, { ...base, durable: false }).concurrency).toBe(30);
    expect(boundConcurrency(1000, { ...base, durable: true }).concurrency).toBe(10); // c + 2c
    expect(boundConcurrency(1000, { ...base, durable: 2 }).concurrency).toBe(6); // c + 2 lanes · 2c
    expect(boundConcurrency(1000, { ...base, adapters: 3, durable: true }).concurrency).toBe(4); // 4 + 3 lanes · 8 = 28
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
    expect(out.message).toMatch(/^--concurrency 4 clamped to 1: memory — 36 workers .* 3 workers \(1 in flight \+ 2 durable spares, ~900 MiB\) at 1, .*; even that may not fit$/);
    expect(out.message).toContain("1.0 GiB is available");
  });

  it("names the value as told (e.g. the default, not a flag) and shows small memory in MiB", () => {
    const out = boundConcurrency(2, { adapters: 2, availableBytes: 300 * MIB, perWorkerBytes: 200 * MIB, label: "the default concurrency" });
    expect(out.message).toBe(
      "the default concurrency 2 clamped to 1: memory — 2 workers (2 in flight, ~400 MiB) could be alive at 2 in flight, 1 worker (1 in flight, ~200 MiB) at 1, " +
        "each adapter's worker at its measured size (orchestrator/config/worker-rss.json), and 300 MiB is available (75% for workers)",
    );
  });

  it("charges an adapter the table does not name as the heaviest measured", () => {
    expect(workerBytesFor("my-own-adapter")).toBe(PER_WORKER_BYTES);
    expect(workerBytesFor(undefined)).toBe(PER_WORKER_BYTES);
    expect(workerBytesFor("vanilla")).toBeLessThan(PER_WORKER_BYTES);
    expect(PER_WORKER_BYTES).toBeGreaterThanOrEqual(288 * MIB); // at least the largest one-pass peak once measured
  });

  it("defaults to the heaviest per-worker figure and the process's available memory", () => {
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

describe("defaultConcurrency", () => {
  it("runs at least as many items in flight as there are cores, and more on a live run that waits on its provider", () => {
    expect(defaultConcurrency("mock", 2)).toBe(2);
    expect(defaultConcurrency("live", 2)).toBe(2 * LIVE_ITEMS_PER_CORE);
    expect(LIVE_ITEMS_PER_CORE).toBeGreaterThan(1);
    expect(defaultConcurrency("mock", 0)).toBe(1);
    expect(defaultConcurrency("live", 10_000)).toBe(MAX_CONCURRENCY);
  });
});

describe("workersAlive with seats (--items-per-worker)", () => {
  it("counts a worker per `seats` items in flight where every item can share, each charged SEAT_BYTES per extra seat", () => {
    const pool: PoolDemand = { itemRuns: 288, durableItemRuns: [], workerBytes: 100 * MIB, seats: 8 };
    expect(workersAlive(64, [pool])).toEqual({ slots: 8, spares: 0, bytes: 8 * (100 * MIB + 7 * SEAT_BYTES) });
    expect(workersAlive(65, [pool]).slots).toBe(9);
    // One seat: one worker per item, as before.
    expect(workersAlive(64, [{ ...pool, seats: 1 }]).slots).toBe(64);
  });

  it("still counts a worker per durable item in flight (a durable item takes a worker alone)", () => {
    const pool: PoolDemand = { itemRuns: 100, durableItemRuns: [10], workerBytes: 100 * MIB, seats: 8 };
    // 16 in flight: at most 10 of them durable (10 workers), the other 6 on one shared worker.
    expect(workersAlive(16, [pool]).slots).toBe(10 + 1);
  });

  it("gives every adapter its seats in poolDemands, and the Python host's adapters one", () => {
    const demands = poolDemands([{ id: "tool_use", durable: false, items: 18 }], ["vanilla", "vanilla-py"].map((name) => {
      const e = ADAPTER_CATALOG.find((a) => a.name === name)!;
      return { name, seats: seatsFor(e, 8) };
    }), 1);
    expect(demands.map((d) => d.seats)).toEqual([8, undefined]);
  });
});
