import { describe, expect, it } from "vitest";
import { heldSlot } from "../../orchestrator/run/held-slot.ts";
import { RunQueue } from "../../orchestrator/run/run-queue.ts";

describe("heldSlot", () => {
  it("the slot goes to what the caller queues before releasing it, not to the task that waited in rank", async () => {
    const queue = new RunQueue(1);
    const order: string[] = [];
    const build = heldSlot(queue, "a", async () => "built", -1);
    const other = queue.add("a", async () => void order.push("other build"), -2);
    queue.start();
    expect(await build.result).toBe("built");
    // The caller's own work between the result and its items (the lane's checks) may take turns of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    const items = [1, 2].map((n) => queue.add("a", async () => void order.push(`item ${n}`), 5));
    build.release();
    await Promise.all([...items, other]);
    expect(order).toEqual(["item 1", "item 2", "other build"]);
  });

  it("a task that throws gives the error and its slot back; release is idempotent", async () => {
    const queue = new RunQueue(1);
    queue.start();
    const failing = heldSlot(queue, "a", async () => {
      throw new Error("no build");
    }, -1);
    await expect(failing.result).rejects.toThrow("no build");
    failing.release();
    failing.release();
    expect(await queue.add("a", async () => "next")).toBe("next");
  });

  it("the slot stays taken until release", async () => {
    const queue = new RunQueue(1);
    queue.start();
    const held = heldSlot(queue, "a", async () => 1, 0);
    await held.result;
    let ran = false;
    const next = queue.add("a", async () => void (ran = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(false);
    held.release();
    await next;
    expect(ran).toBe(true);
  });
});
