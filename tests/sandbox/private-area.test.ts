/**
 * A sealed worker's private area on the host side, without bwrap (PrivateArea only moves folders
 * and inspects them; the mounts are sealed.test.ts's). The slot holds nothing between legs, though
 * the folders that lead to an item's folder are parked beside it and reused rather than made and
 * removed every leg; whatever a worker leaves in them is still reported and removed, and never
 * reaches the next item.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PrivateArea, SETTLED_MS } from "../../orchestrator/supervisor/sandbox/private-area.ts";

function area() {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-area-"));
  const checkpointDir = path.join(root, "checkpoints", "vanilla");
  const slot = path.join(root, "checkpoints", ".private", "vanilla-w0");
  const tmp = path.join(root, "tmp");
  mkdirSync(tmp, { recursive: true });
  const a = new PrivateArea({ layersRoot: path.join(root, "layers"), slot, checkpointDir, tmp, covered: [], readable: [], writable: [tmp] });
  const item = (arena: string, id: string) => {
    const dir = path.join(checkpointDir, arena, id);
    mkdirSync(dir, { recursive: true });
    return { dir, inSlot: path.join(slot, arena, id) };
  };
  return { a, root, slot, checkpointDir, item };
}

const slotEntries = (slot: string) => readdirSync(slot);

describe("a private area's slot", () => {
  it("is empty between legs, and each leg finds its item's folder where the worker was told, with what it wrote before", () => {
    const { a, slot, item } = area();
    const first = item("tool_use", "tu-01.r0");
    const second = item("tool_use", "tu-02.r0");
    a.enter(first.dir);
    expect(existsSync(first.inSlot)).toBe(true);
    writeFileSync(path.join(first.inSlot, "state.json"), "{}");
    expect(a.leave(first.dir)).toEqual([]);
    expect(slotEntries(slot)).toEqual([]);
    expect(readFileSync(path.join(first.dir, "state.json"), "utf8")).toBe("{}");
    // The next item of the same arena: its folder alone is in the slot.
    a.enter(second.dir);
    expect(readdirSync(path.join(slot, "tool_use"))).toEqual(["tu-02.r0"]);
    expect(a.leave(second.dir)).toEqual([]);
    expect(slotEntries(slot)).toEqual([]);
    // An item of another arena, and the first one's again (a durable leg).
    const other = item("durable_state", "ds-01.r0");
    a.enter(other.dir);
    expect(slotEntries(slot)).toEqual(["durable_state"]);
    expect(a.leave(other.dir)).toEqual([]);
    a.enter(first.dir);
    expect(readdirSync(path.join(slot, "tool_use"))).toEqual(["tu-01.r0"]);
    expect(readFileSync(path.join(first.inSlot, "state.json"), "utf8")).toBe("{}");
    expect(a.leave(first.dir)).toEqual([]);
    expect(slotEntries(slot)).toEqual([]);
  });

  it("a stash beside the item's folder is reported, removed, and not found by the next item that reuses the arena's folder", () => {
    const { a, checkpointDir, item } = area();
    const first = item("tool_use", "tu-01.r0");
    const second = item("tool_use", "tu-02.r0");
    a.enter(first.dir);
    writeFileSync(path.join(path.dirname(first.inSlot), "answers.json"), '{"tu-02": "42"}');
    mkdirSync(path.join(path.dirname(first.inSlot), "cache", "deep"), { recursive: true });
    expect(a.leave(first.dir).sort()).toEqual(
      [path.join(checkpointDir, "tool_use", "answers.json"), path.join(checkpointDir, "tool_use", "cache")].map(
        (p) => `wrote ${p} (outside its item's folder and TMPDIR; removed)`,
      ),
    );
    a.enter(second.dir);
    expect(readdirSync(path.dirname(second.inSlot))).toEqual(["tu-02.r0"]);
    expect(a.leave(second.dir)).toEqual([]);
  });

  it("a folder the worker made between legs where the arena's goes is used, and what it holds is reported at the leg's end", () => {
    const { a, slot, checkpointDir, item } = area();
    const first = item("tool_use", "tu-01.r0");
    const second = item("tool_use", "tu-02.r0");
    a.enter(first.dir);
    expect(a.leave(first.dir)).toEqual([]);
    // Between legs the worker still sees its slot: it makes the arena's folder itself, with a stash.
    mkdirSync(path.join(slot, "tool_use"));
    writeFileSync(path.join(slot, "tool_use", "stash"), "x");
    a.enter(second.dir);
    expect(existsSync(second.inSlot)).toBe(true);
    expect(a.leave(second.dir)).toEqual([`wrote ${path.join(checkpointDir, "tool_use", "stash")} (outside its item's folder and TMPDIR; removed)`]);
    expect(slotEntries(slot)).toEqual([]);
    // And the arena's folder is parked again for the leg after.
    a.enter(first.dir);
    expect(readdirSync(path.join(slot, "tool_use"))).toEqual(["tu-01.r0"]);
    expect(a.leave(first.dir)).toEqual([]);
  });

  it("dispose gives an item still in the slot back, and hands over the folders left to remove: layers, slot and park", () => {
    const { a, root, slot, item } = area();
    const first = item("tool_use", "tu-01.r0");
    a.enter(first.dir);
    expect(a.leave(first.dir)).toEqual([]);
    const second = item("search", "s-01.r0");
    a.enter(second.dir);
    const left = a.dispose();
    expect(existsSync(second.dir)).toBe(true);
    // The sandbox removes them off the loop once the worker is gone (background-removal.ts; sealed.test.ts).
    expect(left).toEqual([path.join(root, "layers"), slot, `${slot}.park`]);
    for (const dir of left) rmSync(dir, { recursive: true, force: true });
    expect(readdirSync(path.dirname(slot))).toEqual([]);
  });
});

/**
 * A layer as bubblewrap leaves it: the covered folder `/v/home` seen through `layers/0`, with the
 * parents of a file bound read-only inside it (`/v/home/app/file.txt`) made on the host.
 */
function layered() {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-area-"));
  const tmp = path.join(root, "tmp");
  mkdirSync(tmp, { recursive: true });
  const a = new PrivateArea({
    layersRoot: path.join(root, "layers"),
    slot: path.join(root, "checkpoints", ".private", "vanilla-w0"),
    checkpointDir: path.join(root, "checkpoints", "vanilla"),
    tmp,
    covered: ["/v/home"],
    readable: ["/v/home/app/file.txt"],
    writable: [tmp],
  });
  const app = path.join(root, "layers", "0", "app");
  mkdirSync(app, { recursive: true });
  writeFileSync(path.join(app, "file.txt"), "");
  // A leg that held no item folder: only the layers and the TMPDIR are checked.
  const check = () => a.leave(path.join(root, "not-entered"));
  return { app, check };
}

const wrote = (p: string) => `wrote ${p} (outside its item's folder and TMPDIR; removed)`;

describe("a private area's layers", () => {
  it("report what is written in them after any leg, in a folder a walk found clean long before as in one it did not", async () => {
    const { app, check } = layered();
    await new Promise((r) => setTimeout(r, SETTLED_MS + 20));
    expect(check()).toEqual([]);
    expect(check()).toEqual([]);
    writeFileSync(path.join(app, "stash.json"), "{}");
    expect(check()).toEqual([wrote("/v/home/app/stash.json")]);
    expect(existsSync(path.join(app, "stash.json"))).toBe(false);
    expect(readdirSync(app)).toEqual(["file.txt"]);
  });

  it("list a folder again when it changed within SETTLED_MS before the walk: a write in the same clock tick leaves its ctime as it was", () => {
    const { app, check } = layered();
    // The folders were made just now: this walk finds them clean, but too recent to trust. Only a
    // kernel with coarse timestamps can give the write below the ctime the walk saw; since Linux
    // 6.13 (multigrain timestamps) a change after a stat gets a finer one, so there this passes
    // without the SETTLED_MS rule too.
    expect(check()).toEqual([]);
    writeFileSync(path.join(app, "stash.json"), "{}");
    expect(check()).toEqual([wrote("/v/home/app/stash.json")]);
  });
});
