/**
 * Several items at once in one worker (`itemsPerWorker`, supervisor/seat.ts), with real worker
 * processes (sealed where bubblewrap works): every item passes, every request is under its own
 * seat's tag and belongs to one item, each item's writes land in its own folder, and a durable
 * item still takes a worker alone and resumes on a process that never saw it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { adapterEntry, firstUserText, OUR_ARENAS, OUR_CORPUS, quickRun, tempDirs } from "../support/run.ts";

const FOLDER_KEEPER = { name: "folder-keeper", module: fileURLToPath(new URL("./adapters/folder-keeper.ts", import.meta.url)) };

describe("items per worker", () => {
  it("8 in flight at 4 a worker: two processes, every request under its own seat and item, every folder its own", async () => {
    const { dirs } = tempDirs();
    const arena = loadArena(path.join(OUR_ARENAS, "tool_use"));
    const outcome = await quickRun({ arenaDirs: [arena.dir], adapters: [FOLDER_KEEPER], corpusPath: OUR_CORPUS, concurrency: 8, itemsPerWorker: 4, dirs });
    const lane = outcome.records[0]!.frameworks[0]!;
    expect(outcome.failedItems).toBe(0);
    expect(lane.items.flatMap((i) => i.violations ?? [])).toEqual([]);
    expect(lane.isolation?.violations).toBeUndefined();
    // 8 items in flight at 4 seats a worker: two processes (one per item would be eight).
    expect(readdirSync(dirs.logDir).sort()).toEqual(["folder-keeper__w0.log", "folder-keeper__w1.log"]);

    // Each request is under one seat's tag and carries one item's input; an item's requests all
    // come from one seat, and the gateway served each item exactly the calls counted on its record.
    const ids = new Map(arena.items.map((i) => [i.input, i.id]));
    const tagsOf = new Map<string, Set<string>>();
    const calls = new Map<string, number>();
    for (const request of outcome.gatewayRecords.get("tool_use")!.requests) {
      expect(request.tag).toMatch(/^folder-keeper__tool_use__w[01](\.s[1-3])?$/);
      const id = ids.get(firstUserText(request.body) ?? "");
      expect(id, `a request under ${request.tag} carries no item's input`).toBeDefined();
      tagsOf.set(id!, (tagsOf.get(id!) ?? new Set()).add(request.tag));
      calls.set(id!, (calls.get(id!) ?? 0) + 1);
    }
    const seats = new Set([...tagsOf.values()].flatMap((t) => [...t]));
    expect([...seats].filter((t) => t.includes(".s")).length).toBeGreaterThan(0); // items really sat beside each other
    for (const item of lane.items) {
      expect(tagsOf.get(item.item_id)?.size, item.item_id).toBe(1);
      expect(calls.get(item.item_id), item.item_id).toBe(item.llm_calls);
    }

    // Each item's note is in its own folder and nowhere else.
    const root = path.join(dirs.checkpointRoot, "folder-keeper", "tool_use");
    for (const item of lane.items) {
      const folder = path.join(root, `${item.item_id}.r0`);
      expect(readdirSync(folder), item.item_id).toEqual(["note.txt"]);
      expect(readFileSync(path.join(folder, "note.txt"), "utf8")).toBe(`${item.item_id}\n`);
    }
    expect(existsSync(path.join(root, "note.txt"))).toBe(false);
  }, 120_000);

  it("a durable item still takes a worker alone and resumes on a process that never saw it, beside shared workers", async () => {
    const { dirs } = tempDirs();
    const outcome = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "tool_use"), path.join(OUR_ARENAS, "durable_state")],
      adapters: [adapterEntry("vanilla")],
      corpusPath: OUR_CORPUS,
      concurrency: 4,
      itemsPerWorker: 4,
      dirs,
    });
    expect(outcome.failedItems).toBe(0);
    const durable = outcome.records.find((r) => r.arena === "durable_state")!.frameworks[0]!.items;
    expect(durable.every((i) => (i.legs?.length ?? 0) > 1)).toBe(true);
    const inputs = new Map(loadArena(path.join(OUR_ARENAS, "durable_state")).items.map((i) => [i.input, i.id]));
    const tagsByItem = new Map<string, Set<string>>();
    for (const request of outcome.gatewayRecords.get("durable_state")!.requests) {
      // One seat per worker on a durable arena: no seat suffix.
      expect(request.tag).toMatch(/^vanilla__durable_state__w\d+$/);
      const itemId = inputs.get(firstUserText(request.body) ?? "");
      if (itemId !== undefined) tagsByItem.set(itemId, (tagsByItem.get(itemId) ?? new Set()).add(request.tag));
    }
    // Every leg of an item came from a different process.
    for (const item of durable) expect(tagsByItem.get(item.item_id)?.size, item.item_id).toBe(item.legs!.length);
    // The tool_use items did share workers.
    const toolUseTags = new Set(outcome.gatewayRecords.get("tool_use")!.requests.map((r) => r.tag));
    expect([...toolUseTags].some((t) => t.includes(".s"))).toBe(true);
  }, 180_000);
});
