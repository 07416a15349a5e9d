/**
 * Scoring a data-file regex on the real CLI (orchestrator/run/scorer.ts): a quick pattern is
 * scored on the orchestrator's loop under the watchdog, and a catastrophic one — honest on the
 * arena's first two items, backtracking for minutes on the third's answer — is stopped there,
 * scored in a thread with the run's deadline and failed for it, while the rest of the run goes on.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { deadlineDetail } from "../../orchestrator/scoring/regex-threads.ts";
import { arenaCli, arenasCopy, editItems, outputRoot } from "../support/cli.ts";

/** `^(.*)*x` against "3 raised to the 7th power is 2187.": ~2^34 backtracking steps, minutes on any machine. */
const CATASTROPHIC = "^(.*)*x";

function withRegexChecks(dir: string): void {
  editItems<{ id: string; checks: object[] }>(dir, "tool_use", (item) => {
    const pattern = ({ "tu-01": "\\d", "tu-02": "\\d+", "tu-03": CATASTROPHIC } as Record<string, string>)[item.id];
    return pattern === undefined ? undefined : { ...item, checks: [...item.checks, { type: "iregex", value: pattern }] };
  });
}

describe("a data regex on the real CLI", () => {
  it("scores quick patterns under the watchdog and fails a catastrophic one on the run's deadline", async () => {
    const arenas = arenasCopy();
    withRegexChecks(arenas);
    const { root, env } = outputRoot();
    const r = await arenaCli(["run", "--arena", "tool_use", "--framework", "vanilla", "--arenas-dir", arenas, "--quiet"], env);
    // tu-03 now fails, and the expectations file does not list it.
    expect(r.exitCode, r.stderr).toBe(1);
    const record = JSON.parse(readFileSync(path.join(root, "runs", "latest", "records", "tool_use.json"), "utf8"));
    const items = new Map((record.frameworks[0].items as { item_id: string; passed: boolean; checks: { type: string; ok: boolean; detail: string }[] }[]).map((i) => [i.item_id, i]));
    for (const id of ["tu-01", "tu-02"]) {
      expect(items.get(id)!.passed).toBe(true);
      expect(items.get(id)!.checks.at(-1)).toMatchObject({ type: "iregex", ok: true });
    }
    const slow = items.get("tu-03")!;
    expect(slow.passed).toBe(false);
    expect(slow.checks.map((c) => [c.ok, c.detail])).toEqual(slow.checks.map(() => [false, deadlineDetail(2_000)]));
    const others = [...items.values()].filter((i) => i.item_id !== "tu-03");
    expect(others.length).toBeGreaterThan(10);
    expect(others.every((i) => i.passed)).toBe(true);
  }, 120_000);
});
