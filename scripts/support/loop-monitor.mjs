/**
 * Preloaded into an `arena` command (NODE_OPTIONS="--import <this file>"; workers never inherit
 * NODE_OPTIONS, worker-env.ts): watches the orchestrator's event loop from inside it with a 2 ms
 * ticker and, at exit, writes to `ARENA_LOOP_MONITOR_OUT` (JSON) every gap between ticks of 10 ms
 * or more: how often the loop was held, for how long in all, and the longest. Plain JavaScript, so
 * it needs no loader of its own. Used by scripts/loop-stall.ts.
 */
import { writeFileSync } from "node:fs";

const out = process.env.ARENA_LOOP_MONITOR_OUT;
delete process.env.ARENA_LOOP_MONITOR_OUT;
if (out !== undefined) {
  const EVERY_MS = 2;
  const HELD_MS = 10;
  const gaps = [];
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now - last >= HELD_MS) gaps.push(now - last);
    last = now;
  }, EVERY_MS).unref();
  process.once("exit", () => writeFileSync(out, JSON.stringify({ gaps })));
}
