/**
 * Two adapters on the real CLI at 2 items in flight: the run's queue gives each slot to the adapter
 * with the fewest tasks running (run/run-queue.ts), so the two run side by side on one worker each,
 * and the only other starts are the durable restarts. One of them may take the second slot at the
 * run's tail, when the other has nothing left: one more process, no more. History: interleaved
 * (the queue running before every lane had queued its build, items in arrival order), each switch
 * between adapters stopped one's idle worker to start the other's: 16 and 17 processes here; ranked
 * adapter by adapter, each adapter's items took both slots on two workers: 12 and 12.
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

describe("one worker per adapter while another adapter has work", () => {
  it("two adapters at 2 in flight: one worker each and one per durable pause, one more at the tail at most", async () => {
    const { root, env } = outputRoot();
    const arenas = ["durable_state", "human_in_the_loop", "tool_use", "rag"].flatMap((a) => ["--arena", a]);
    const r = await arenaCli(["bench", "--framework", "vanilla", "--adapter", SECOND, ...arenas, "--concurrency", "2", "--quiet"], env);
    expect(r.exitCode, r.stderr).toBe(0);
    const counts = workersPerAdapter(root);
    // durable_state has 10 items, each paused once: 10 restarts on fresh processes, whatever the order.
    expect([...counts.keys()].sort()).toEqual(["honest-streamer", "vanilla"]);
    for (const [adapter, n] of counts) expect(n, adapter).toBeGreaterThanOrEqual(11);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(23);
  });
});
