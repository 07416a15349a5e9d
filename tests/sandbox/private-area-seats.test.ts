/**
 * A private area holding several items' folders at once (seats, supervisor/seat.ts): each leg's
 * folder goes in and out on its own, the check after one leg treats the folders still held as
 * held, a stray found while others are held says it may be theirs, and the TMPDIR (the process's,
 * shared by its seats) is emptied only when no leg is in flight. Host folders only: no bwrap needed.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PrivateArea } from "../../orchestrator/supervisor/sandbox/private-area.ts";

function area() {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-area-seats-"));
  const checkpointDir = path.join(root, "checkpoints", "vanilla");
  const tmp = path.join(root, "tmp");
  mkdirSync(tmp, { recursive: true });
  const plan = { layersRoot: path.join(root, "layers"), slot: path.join(root, "slot"), checkpointDir, tmp, covered: [path.join(root, "covered")], readable: [], writable: [tmp] };
  const item = (id: string) => {
    const dir = path.join(checkpointDir, "tool_use", id);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  /** Where the worker sees `dir` while it is in the slot. */
  const inSlot = (dir: string) => path.join(plan.slot, path.relative(checkpointDir, dir));
  return { area: new PrivateArea(plan), plan, item, inSlot, tmp };
}

describe("a private area with several legs in flight", () => {
  it("moves each folder in and out with its own leg, and leaves the folders still held alone", () => {
    const { area: a, item, inSlot, tmp } = area();
    const [one, two] = [item("tu-01.r0"), item("tu-02.r0")];
    a.enter(one);
    a.enter(two);
    expect(a.held).toEqual([one, two]);
    writeFileSync(path.join(inSlot(one), "state.json"), "one");
    writeFileSync(path.join(inSlot(two), "state.json"), "two");
    writeFileSync(path.join(tmp, "scratch"), "in flight");

    expect(a.leave(one)).toEqual([]); // tu-02's folder and its file are held, not strays
    expect(readFileSync(path.join(one, "state.json"), "utf8")).toBe("one");
    expect(existsSync(two)).toBe(false); // still in the slot, for its own leg
    expect(readFileSync(path.join(inSlot(two), "state.json"), "utf8")).toBe("two");
    expect(readdirSync(tmp)).toEqual(["scratch"]); // another leg is in flight: the TMPDIR is kept

    expect(a.leave(two)).toEqual([]);
    expect(readFileSync(path.join(two, "state.json"), "utf8")).toBe("two");
    expect(readdirSync(tmp)).toEqual([]); // the last leg out empties it
    expect(a.held).toEqual([]);
  });

  it("reports a stray found while another leg is in flight to the leg that ended, saying it may be the other's", () => {
    const { area: a, plan, item, inSlot } = area();
    const [one, two] = [item("tu-01.r0"), item("tu-02.r0")];
    a.enter(one);
    a.enter(two);
    writeFileSync(path.join(plan.slot, "tool_use", "beside.json"), "{}");
    const strays = a.leave(one);
    expect(strays).toEqual([
      `wrote ${path.join(plan.checkpointDir, "tool_use", "beside.json")} (outside its item's folder and TMPDIR while 1 other item was in this worker, so it may be theirs; removed)`,
    ]);
    expect(existsSync(path.join(plan.slot, "tool_use", "beside.json"))).toBe(false);
    expect(existsSync(inSlot(two))).toBe(true);
    expect(a.leave(two)).toEqual([]);
  });

  it("gives back every folder still held when the worker dies, each reported by its own leave", () => {
    const { area: a, item } = area();
    const [one, two] = [item("tu-01.r0"), item("tu-02.r0")];
    a.enter(one);
    a.enter(two);
    a.dispose();
    expect([existsSync(one), existsSync(two)]).toEqual([true, true]);
    expect([a.leave(one), a.leave(two)]).toEqual([[], []]);
  });
});
