/**
 * Two adapters on the real CLI at 2 items in flight share the run's worker budget: with their
 * items ranked adapter by adapter (session.ts, lane.ts), each adapter's pool keeps its two workers
 * from one arena to the next, and the only other starts are the durable restarts. Interleaved (the
 * queue running before every lane had queued its first build, items in arrival order), each switch
 * between adapters stopped one's idle worker to start the other's: 16 and 17 processes here,
 * against the 12 and 12 asserted below.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { arenaCli, outputRoot } from "../support/cli.ts";

const SECOND = FIXTURES["honest-streamer"].module;

function workersPerAdapter(root: string): Map<string, number> {
  const logs = path.join(root, "runs", "latest", "logs", "s0");
  const counts = new Map<string, number>();
  for (const name of readdirSync(logs)) {
    const adapter = /^(.+)__w\d+\.log$/.exec(name)?.[1];
    if (adapter) counts.set(adapter, (counts.get(adapter) ?? 0) + 1);
  }
  return counts;
}

describe("items ranked adapter by adapter", () => {
  it("two adapters at 2 in flight: each starts its 2 workers and one per durable pause, no more", async () => {
    const { root, env } = outputRoot();
    const arenas = ["durable_state", "human_in_the_loop", "tool_use", "rag"].flatMap((a) => ["--arena", a]);
    const r = await arenaCli(["bench", "--framework", "vanilla", "--adapter", SECOND, ...arenas, "--concurrency", "2", "--quiet"], env);
    expect(r.exitCode, r.stderr).toBe(0);
    const counts = workersPerAdapter(root);
    // durable_state has 10 items, each paused once: 10 restarts on fresh processes, whatever the order.
    expect([...counts.keys()].sort()).toEqual(["honest-streamer", "vanilla"]);
    for (const [adapter, n] of counts) {
      expect(n, adapter).toBeGreaterThanOrEqual(11);
      expect(n, adapter).toBeLessThanOrEqual(12);
    }
  });
});
