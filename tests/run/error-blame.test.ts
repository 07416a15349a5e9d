/**
 * Blame where it belongs (issue 18), with real worker processes: a connection refused by anything
 * but the gateway is the adapter's error (`side-channel`, through the real orchestrator), while a
 * gateway that really refuses stays `infra` — for an unsealed worker and for a sealed one, whose
 * requests reach the gateway through the sandbox bridge.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { findAdapter } from "../../contract/catalogue.ts";
import { driveItem } from "../../orchestrator/run/drive.ts";
import { WorkerPool } from "../../orchestrator/supervisor/pool.ts";
import { Isolation } from "../../orchestrator/supervisor/sandbox/index.ts";
import { closedBaseUrl } from "../support/closed-port.ts";
import { OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

afterEach(() => {
  vi.unstubAllEnvs();
});

async function sideChannel(itemFilter?: readonly string[]) {
  const { records } = await quickRun({
    arenaDirs: [path.join(OUR_ARENAS, "tool_use")],
    adapters: [FIXTURES["side-channel"]],
    corpusPath: OUR_CORPUS,
    concurrency: 1,
    ...(itemFilter ? { itemFilter } : {}),
  });
  return { items: records[0]!.frameworks[0]!.items, isolation: records[0]!.frameworks[0]!.isolation };
}

describe("side-channel: refused by its own helper, not by the gateway", () => {
  it("a tool_use run: items 1–2 clean, every later item an `adapter` error (the gateway itself answers throughout)", async () => {
    const { items } = await sideChannel();
    expect(items.length).toBeGreaterThan(3);
    for (const i of items.slice(0, 2)) expect([i.passed, i.error, i.error_class]).toEqual([true, null, undefined]);
    for (const i of items.slice(2)) {
      expect([i.passed, i.error, i.error_class]).toEqual([false, "TypeError: fetch failed", "adapter"]);
    }
  }, 60_000);

  it("the same, watched instead of sealed (ARENA_SANDBOX=off)", async () => {
    vi.stubEnv("ARENA_SANDBOX", "off");
    const { items, isolation } = await sideChannel(["tu-01", "tu-02", "tu-03", "tu-04"]);
    expect(isolation?.level).toBe("watched");
    expect(items.map((i) => i.error_class ?? null)).toEqual([null, null, "adapter", "adapter"]);
  }, 60_000);
});

/** One vanilla item driven on a pool whose gateway is `baseUrl` (nothing listens there). */
async function refusedByGateway(isolated: boolean) {
  const baseUrl = await closedBaseUrl();
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-blame-"));
  const vanilla = findAdapter("vanilla")!;
  const isolation = isolated
    ? new Isolation({ adapter: "vanilla", checkpointDir: path.join(root, "checkpoints", "vanilla"), endpoints: () => [baseUrl] })
    : undefined;
  const pool = new WorkerPool({
    adapter: { name: vanilla.name, module: vanilla.module },
    corpusPath: OUR_CORPUS,
    logDir: root,
    label: "vanilla",
    ...(isolation ? { isolation } : {}),
  });
  try {
    const opened = await pool.open({
      arena: { id: "tool_use", tools: ["calculator"], systemPrompt: "Answer.", durable: false },
      config: { model: "mock-model", apiKey: "sk-test", temperature: 0, requestTimeoutS: 5, maxToolIterations: 4 },
      baseUrlFor: () => baseUrl,
      warmSpares: 0,
      spareBudget: 0,
    });
    expect(opened).toMatchObject({ ok: true });
    const item = { id: "tu-01", input: "What is 48 * 37 - 129?", resume_with: "", checkpointDir: root };
    const driven = await driveItem(pool, item, { arena: "tool_use", durable: false, legDeadlineMs: 10_000 });
    return { driven, level: isolation?.level.level ?? "none", network: isolation?.record().network };
  } finally {
    await pool.close();
  }
}

describe("a gateway that really refuses is still `infra`", () => {
  it("unsealed: the worker's fetch names the gateway's own address and port", async () => {
    const { driven } = await refusedByGateway(false);
    expect([driven.merged.error, driven.errorClass]).toEqual(["TypeError: fetch failed", "infra"]);
  }, 30_000);

  it("isolated as a run's workers are (sealed here when bwrap works): the bridge's refusal is the gateway's too", async () => {
    const { driven, level, network } = await refusedByGateway(true);
    expect(["sandbox", "watched"]).toContain(level);
    // Sealed, the worker dials the bridge on the same 127.0.0.1:2, which closes on it when the
    // gateway behind it refuses; watched, it dials the gateway itself. Either way: the provider's.
    if (level === "sandbox") expect(network).toBe("sealed");
    expect([driven.merged.error, driven.errorClass]).toEqual(["TypeError: fetch failed", "infra"]);
  }, 30_000);
});
