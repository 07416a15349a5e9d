/**
 * The hostile fixtures of sealed workers, through the real orchestrator (real workers, the real
 * gateway, a real durable restart), once sealed and once watched:
 *
 * - `leaves-orphan` leaves a detached `sleep` behind from its second leg on, by a worker that is
 *   then stopped at the end of the run or SIGKILLed at a durable pause. Sealed: none survives the
 *   run. Watched: each is killed and recorded as a violation.
 * - `late-litterer` writes into another adapter's checkpoint folder after the restart. Sealed:
 *   the write lands in a throwaway layer, nothing reaches the folder, and the item's record names
 *   it (`sandbox-write`). Watched: the write happens and is recorded on the lane.
 * - `tidy-litterer` leaves a note in its checkpoint root from its third item on and puts the
 *   folder's times back. Sealed: the check after the leg, which skips a layer folder whose inode
 *   and ctime have not moved since it was found clean, still finds it on that item.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { PLANTED } from "../../fixtures/adapters/late-litterer/index.ts";
import { NOTE } from "../../fixtures/adapters/tidy-litterer/index.ts";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";
import { probeRun, type ProbeRun } from "../probes/support.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { alive, tagged } from "./support.ts";

const DURABLE = path.join(OUR_ARENAS, "durable_state");
const detected = detectBwrap();
const sealed = detected.ok;
const bwrapVersion = () => (detected.ok ? detected.bwrap.version : "");

/**
 * Two shapes: on tool_use one worker runs both items, so the sleeper of its second leg outlives a
 * worker stopped at the end of the run; on durable_state a worker that runs dur-02 after resuming
 * dur-01 leaves one and is SIGKILLed at dur-02's pause.
 */
const ORPHAN_CASES = [
  { label: "stopped at the end", arena: path.join(OUR_ARENAS, "tool_use"), items: ["tu-01", "tu-02"] },
  { label: "SIGKILLed at the pause", arena: DURABLE, items: ["dur-01", "dur-02"] },
];

function orphanRun(tag: string, arena: string, items: string[]): Promise<ProbeRun> {
  return probeRun({
    adapter: { name: "leaves-orphan", module: FIXTURES["leaves-orphan"].module },
    arena,
    items,
    workerEnv: { ARENA_ORPHAN_TAG: tag },
  });
}

function litterRun(): Promise<ProbeRun> {
  return probeRun({ adapter: { name: "late-litterer", module: FIXTURES["late-litterer"].module }, arena: DURABLE, items: ["dur-01"] });
}

/** The pids the fixture says it left running, from its workers' logs. */
function leftPids(run: ProbeRun): number[] {
  const logs = run.logDir;
  return readdirSync(logs).flatMap((f) => [...readFileSync(path.join(logs, f), "utf8").matchAll(/leaves-orphan: left sleep (\d+) running/g)].map((m) => Number(m[1])));
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe.skipIf(!sealed)("sealed (bubblewrap)", () => {
  for (const c of ORPHAN_CASES) {
    it(`leaves-orphan, worker ${c.label}: its sleeper dies with the worker's PID namespace`, async () => {
      vi.stubEnv("ARENA_SANDBOX", "bwrap");
      const tag = randomUUID();
      const run = await orphanRun(tag, c.arena, c.items);
      expect(run.record.items.map((i) => i.passed)).toEqual([true, true]);
      // One was started (so "none left" below means something) ...
      expect(leftPids(run).length).toBeGreaterThan(0);
      // ... and none is left.
      expect(await alive(() => tagged("ARENA_ORPHAN_TAG", tag))).toEqual([]);
      expect(run.record.isolation).toEqual({ level: "sandbox", network: "sealed", tool: bwrapVersion() });
    }, 60_000);
  }

  it("late-litterer: the write after the restart lands in a throwaway layer, nothing reaches the folder, and the item's record names it", async () => {
    vi.stubEnv("ARENA_SANDBOX", "bwrap");
    const run = await litterRun();
    const item = run.record.items[0]!;
    const foreign = path.join(run.checkpointRoot, "vanilla");
    expect(existsSync(foreign)).toBe(false);
    // Reported on the leg that wrote it (the resumed one), as what the worker saw.
    const writes = (item.violations ?? []).filter((v) => v.rule === "sandbox-write");
    expect(writes.map((v) => [v.leg, v.detail])).toEqual([[2, `wrote ${foreign} (outside its item's folder and TMPDIR; removed)`]]);
    expect(run.record.isolation?.violations).toBeUndefined();
  }, 60_000);
});

describe.skipIf(!sealed)("sealed (bubblewrap), a layer folder's times put back", () => {
  it("tidy-litterer: the note of its third item is found after that item's leg, though the folder's mtime is as it was", async () => {
    vi.stubEnv("ARENA_SANDBOX", "bwrap");
    const run = await probeRun({
      adapter: { name: "tidy-litterer", module: FIXTURES["tidy-litterer"].module },
      arena: path.join(OUR_ARENAS, "tool_use"),
      items: ["tu-01", "tu-02", "tu-03", "tu-04"],
    });
    // One worker ran all four, so the layer was walked clean after the first two legs.
    const logs = readdirSync(run.logDir).map((f) => readFileSync(path.join(run.logDir, f), "utf8")).join("");
    expect([...logs.matchAll(/tidy-litterer: (tu-\d+) left/g)].map((m) => m[1])).toEqual(["tu-03", "tu-04"]);
    const note = path.join(run.checkpointRoot, NOTE);
    expect(existsSync(note)).toBe(false);
    const writes = run.record.items.map((i) => (i.violations ?? []).filter((v) => v.rule === "sandbox-write").map((v) => v.detail));
    const wrote = [`wrote ${note} (outside its item's folder and TMPDIR; removed)`];
    expect(writes).toEqual([[], [], wrote, wrote]);
  }, 60_000);
});

describe.runIf(process.platform === "linux")("watched (ARENA_SANDBOX=off)", () => {
  for (const c of ORPHAN_CASES) {
    it(`leaves-orphan, worker ${c.label}: the survivor is killed and recorded as a violation`, async () => {
      vi.stubEnv("ARENA_SANDBOX", "off");
      const tag = randomUUID();
      const run = await orphanRun(tag, c.arena, c.items);
      expect(run.record.items.map((i) => i.passed)).toEqual([true, true]);
      const pids = leftPids(run);
      expect(pids.length).toBeGreaterThan(0);
      expect(await alive(() => tagged("ARENA_ORPHAN_TAG", tag))).toEqual([]);
      const isolation = run.record.isolation!;
      expect(isolation).toMatchObject({ level: "watched", network: "shared", tool: "watcher (/proc)", reason: "ARENA_SANDBOX=off" });
      const survivors = (isolation.violations ?? []).filter((v) => v.includes("outlived the worker"));
      expect(survivors.map((v) => Number(/pid (\d+)/.exec(v)![1])).sort()).toEqual([...pids].sort());
      for (const v of survivors) expect(v).toMatch(/^w\d+: a process outlived the worker outside its process group \(pid \d+: sleep 300\); killed$/);
    }, 60_000);
  }

  it("late-litterer: the write into another adapter's folder happens, and is recorded", async () => {
    vi.stubEnv("ARENA_SANDBOX", "off");
    const run = await litterRun();
    expect(run.record.items[0]!.passed).toBe(true);
    const planted = path.join(run.checkpointRoot, "vanilla", "durable_state", PLANTED);
    expect(existsSync(planted)).toBe(true);
    expect(run.record.isolation?.violations).toContainEqual(
      expect.stringMatching(new RegExp(`^w\\d+: created vanilla/durable_state/${PLANTED} in the checkpoint root \\(${planted.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\)$`)),
    );
  }, 60_000);
});
