/**
 * Provider faults in the figures and in results/, on the real CLI against a fake provider on loopback:
 * a live run whose provider 503s on some items counts only the served cells in its scorecard,
 * summary and report, `arena compare` against a clean run exits 0 naming the unserved cells
 * apart, and `results/` keeps the last good published rows through a partial and an all-503 run
 * (and a published file that does not read is refused, not replaced).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arenaCli, outputRoot, runIdsIn } from "../support/cli.ts";
import { answer, FAKE_MODEL, fakeProvider } from "../support/fake-provider.ts";
import { tempRoot, writeArena } from "../arena-loader/fixture.ts";

const KEY = "sk-test-0123456789abcdefghijKLMN";
const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

describe("provider faults in every figure and in results/ (real CLI, fake provider)", () => {
  it("infra cells are left out of the figures, compare is clean, and results/ keeps its last good rows", async () => {
    const { root, env } = outputRoot();
    const arenas = tempRoot();
    writeArena(arenas, "sums", {
      dataset: [1, 2, 3, 4].map((n) => JSON.stringify({ id: `s-0${n}`, input: `What is ${n} plus 2?`, checks: [{ type: "contains", value: String(n + 2) }] })).join("\n") + "\n",
    });
    // healthy: every answer right; flaky: 503 on the even items; down: 503 on everything.
    let state: "healthy" | "flaky" | "down" = "healthy";
    const provider = await fakeProvider((_n, body) => {
      const n = Number(/What is (\d) plus 2/.exec(body)?.[1]);
      if (state === "down" || (state === "flaky" && n % 2 === 0)) return { status: 503, body: { error: { message: "overloaded" } } };
      return answer(`The answer is ${n + 2}.`);
    });
    const live = { ...env, OPENAI_BASE_URL: provider.baseUrl, OPENAI_API_KEY: KEY, ARENA_MODEL: FAKE_MODEL, ARENA_REQUEST_TIMEOUT_S: "5" };
    const args = ["run", "--arenas-dir", arenas, "--arena", "sums", "--framework", "vanilla", "--mode", "live"];
    const published = (file: string) => readFileSync(path.join(root, "results", "sums", file), "utf8");
    try {
      const good = await arenaCli(args, live);
      expect(good.exitCode, good.stdout + good.stderr).toBe(0);
      const [goodId] = runIdsIn(root);
      const goodRows = JSON.parse(published("scorecard.json")).rows;
      expect(published("scorecard.md")).toContain("| `vanilla` | ");
      expect(published("scorecard.md")).toContain("100% (4/4)");

      state = "flaky";
      const flaky = await arenaCli(args, live);
      expect(flaky.exitCode, flaky.stdout + flaky.stderr).toBe(3);
      const flakyId = runIdsIn(root).at(-1)!;
      expect(flaky.stdout).toContain("sums vanilla: 2/2 passed; 2 cells not served by the provider: 2× 503\n");
      expect(flaky.stdout).toContain(`results/sums: vanilla not published (2 of 4 cells not served by the provider: 2× 503); the row from run ${goodId} stays\n`);
      expect(lastLine(flaky.stdout)).toMatch(/^exit 3: 2 infra and 0 harness error\(s\) — .*; results\/ got only the lanes the provider served \(rerun them: /);

      // The run's own scorecard, summary and report: 2/2, with the two 503s beside the figures.
      const runDir = path.join(root, "runs", flakyId);
      const scorecard = readFileSync(path.join(runDir, "scorecards", "sums", "scorecard.md"), "utf8");
      expect(scorecard).toMatch(/^\| `vanilla` \| [^|]+ \| 100% \(2\/2\) \| 0 \| 2 \(2× 503\) \|/m);
      expect(scorecard).toContain("- `vanilla` — 2 cells not served by the provider: 2× 503");
      expect(scorecard).not.toContain("**Failed items**");
      const row = JSON.parse(readFileSync(path.join(runDir, "scorecards", "sums", "scorecard.json"), "utf8")).rows[0];
      expect({ items: row.items, passed: row.passed, not_served: row.not_served, errors: row.errors }).toEqual({ items: 2, passed: 2, not_served: 2, errors: 0 });
      const summary = readFileSync(path.join(runDir, "summary.md"), "utf8");
      expect(summary).toContain("| `vanilla` | ✅ |");
      expect(summary).toContain("| `sums` | `vanilla` | 2 cells not served by the provider: 2× 503 |");
      const report = await arenaCli(["report", flakyId], live);
      expect(report.exitCode, report.stdout + report.stderr).toBe(0);
      const html = readFileSync(path.join(runDir, "report.html"), "utf8");
      expect(html).toMatch(/"n":2,"passed":2,"passRate":1,/);
      expect(html).toContain('"notServed":2,"notServedByCause":{"503":2}');

      // Compare against the clean run: nothing the provider failed is a regression.
      const compare = await arenaCli(["compare", goodId!, flakyId], live);
      expect(compare.exitCode, compare.stdout + compare.stderr).toBe(0);
      expect(compare.stdout).toContain("  not served by the provider sums/vanilla (not compared): A none; B s-02, s-04\n");
      expect(lastLine(compare.stdout)).toBe("no regression (--threshold 0)");

      // results/: the good row stands, its figures untouched, marked with its run and the run kept out.
      expect(JSON.parse(published("scorecard.json")).rows).toEqual(goodRows);
      expect(published("scorecard.md")).toContain(`| \`vanilla\` | \`${goodId}\` |`);
      expect(published("scorecard.md")).toContain(`kept: run \`${flakyId}\` was not published over it (2 of 4 cells not served by the provider: 2× 503)`);

      state = "down";
      const down = await arenaCli(args, live);
      expect(down.exitCode, down.stdout + down.stderr).toBe(3);
      const downId = runIdsIn(root).at(-1)!;
      expect(down.stdout).toContain("sums vanilla: 0/0 passed; 4 cells not served by the provider: 4× 503\n");
      const after = JSON.parse(published("scorecard.json"));
      expect(after.rows).toEqual(goodRows);
      expect(after.meta.run_id).toBe(goodId);
      expect(after.sources).toEqual([expect.objectContaining({ framework: "vanilla", run_id: goodId, kept_over: { run_id: downId, reason: "4 of 4 cells not served by the provider: 4× 503" } })]);
      expect(readFileSync(path.join(root, "results", "summary.md"), "utf8")).toContain("| `vanilla` | ✅ |");

      // A published file that does not read is never replaced: one line naming it, exit 3.
      state = "healthy";
      const file = path.join(root, "results", "sums", "published.json");
      writeFileSync(file, "{ truncated");
      const refused = await arenaCli(args, live);
      expect(refused.exitCode, refused.stdout + refused.stderr).toBe(3);
      expect(refused.stderr).toMatch(/^arena: cannot publish: .*results\/sums\/published\.json: not valid JSON .*; move it away to publish afresh$/m);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(file, "utf8")).toBe("{ truncated");
    } finally {
      await provider.close();
    }
  }, 240_000);
});
