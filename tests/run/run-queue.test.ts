import { describe, expect, it } from "vitest";
import { RunQueue } from "../../orchestrator/run/run-queue.ts";

/** A task that records its start and ends when told. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("RunQueue", () => {
  it("a free slot goes to the adapter with no task running, even one ranked lower", async () => {
    const queue = new RunQueue(2);
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const task = (name: string) => async () => {
      started.push(name);
      const g = gate();
      gates.set(name, g);
      await g.opened;
    };
    const all = [
      queue.add("a", task("a1"), 10),
      queue.add("a", task("a2"), 10),
      queue.add("a", task("a3"), 10),
      queue.add("b", task("b build"), -5),
      queue.add("b", task("b1"), 5),
    ];
    queue.start();
    await turn();
    // Ranked alone, a2 would have taken the second slot: b's first task has none of b's running.
    expect(started).toEqual(["a1", "b1"]);
    gates.get("a1")!.open();
    await turn();
    // a has nothing running again and outranks b's build: a's next item, on a's idle worker.
    expect(started).toEqual(["a1", "b1", "a2"]);
    gates.get("b1")!.open();
    await turn();
    expect(started).toEqual(["a1", "b1", "a2", "b build"]);
    gates.get("b build")!.open();
    await turn();
    // Only a has work left: it takes the second slot too.
    expect(started).toEqual(["a1", "b1", "a2", "b build", "a3"]);
    for (const g of gates.values()) g.open();
    await Promise.all(all);
  });

  it("equally busy adapters: higher priority first, then the order tasks came in", async () => {
    const queue = new RunQueue(1);
    const order: string[] = [];
    const add = (group: string, name: string, priority: number) => queue.add(group, async () => void order.push(name), priority);
    const all = [add("a", "a low", 1), add("b", "b high", 3), add("c", "c high", 3), add("a", "a top", 4)];
    queue.start();
    await Promise.all(all);
    expect(order).toEqual(["a top", "b high", "c high", "a low"]);
  });

  it("a task that throws frees its adapter's count with its slot", async () => {
    const queue = new RunQueue(2);
    queue.start();
    await expect(queue.add("a", async () => {
      throw new Error("build failed");
    })).rejects.toThrow("build failed");
    const started: string[] = [];
    const hold = gate();
    const first = queue.add("b", async () => {
      started.push("b1");
      await hold.opened;
    });
    const second = queue.add("a", async () => void started.push("a1"), -10);
    const third = queue.add("b", async () => void started.push("b2"), 10);
    await turn();
    // Had a's failure left it counted as running, b2 (b busy, higher priority) would not have lost to a1.
    expect(started.slice(0, 2)).toEqual(["b1", "a1"]);
    hold.open();
    await Promise.all([first, second, third]);
    expect(started).toEqual(["b1", "a1", "b2"]);
  });

  it("returns each task's result", async () => {
    const queue = new RunQueue(3);
    queue.start();
    expect(await Promise.all([1, 2, 3].map((n) => queue.add(`g${n % 2}`, async () => n * 2)))).toEqual([2, 4, 6]);
  });
});
