import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { removeQuietly } from "../../orchestrator/files/fs-error.ts";
import { backgroundRemovalsSettled, removeInBackground } from "../../orchestrator/supervisor/sandbox/background-removal.ts";

/** A folder of `n` sub-folders with a file each: enough entries that removing it takes many loop ticks' time. */
function tree(n: number): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-removal-"));
  for (let i = 0; i < n; i++) {
    mkdirSync(path.join(root, String(i)));
    writeFileSync(path.join(root, String(i), "f"), "x");
  }
  return root;
}

describe("removing a dead worker's folders off the loop", () => {
  it("removes each folder, then runs what comes after, while the loop keeps turning", async () => {
    const [a, b] = [tree(3000), tree(10)];
    const order: string[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    try {
      removeInBackground([a, b], () => order.push(`after: ${existsSync(a)} ${existsSync(b)}`));
      // Had the removal run on this thread, nothing else could have run before this line.
      expect(existsSync(a)).toBe(true);
      await backgroundRemovalsSettled();
    } finally {
      clearInterval(ticker);
    }
    expect([existsSync(a), existsSync(b)]).toEqual([false, false]);
    expect(order).toEqual(["after: false false"]);
    expect(ticks).toBeGreaterThan(0);
  });

  it("waits for removals started while it waits, and settles at once when there are none", async () => {
    await expect(backgroundRemovalsSettled()).resolves.toBeUndefined();
    const [first, second] = [tree(200), tree(200)];
    removeInBackground([first], () => removeInBackground([second]));
    await backgroundRemovalsSettled();
    expect([existsSync(first), existsSync(second)]).toEqual([false, false]);
  });

  it("is best effort: a folder that is gone, or an `after` that throws, costs nothing", async () => {
    const gone = path.join(os.tmpdir(), "arena-removal-never-made");
    removeInBackground([gone], () => {
      throw new Error("after failed");
    });
    await expect(backgroundRemovalsSettled()).resolves.toBeUndefined();
    expect(() => removeQuietly(gone)).not.toThrow();
    const here = tree(2);
    removeQuietly(here);
    expect(existsSync(here)).toBe(false);
  });
});
