import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { countWorkerLogs, workerLogsByAdapter } from "../../scripts/support/timed-run.ts";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("countWorkerLogs and workerLogsByAdapter", () => {
  it("counts each worker log once, though runs/latest links to the same run", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "arena-count-logs-"));
    made.push(root);
    const logs = path.join(root, "runs", "20261207T000000000Z-abcdef", "logs", "s0");
    mkdirSync(logs, { recursive: true });
    for (const name of ["vanilla__w0.log", "vanilla__w1.log", "mastra-multi__w0.log", "vanilla.log", "notes__wx.log"]) writeFileSync(path.join(logs, name), "");
    symlinkSync("20261207T000000000Z-abcdef", path.join(root, "runs", "latest"));
    expect(countWorkerLogs(root)).toBe(3);
    expect(Object.fromEntries(workerLogsByAdapter(root))).toEqual({ vanilla: 2, "mastra-multi": 1 });
  });
});
