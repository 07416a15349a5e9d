/**
 * CI semantics for live runs, on the real CLI against a fake provider on loopback: a live run is
 * judged by pass-rate thresholds or against a baseline run, never by the mock's expectations file;
 * its last line names the judgement; `--update-expected` (and the other mock-only flags) are
 * refused before anything runs.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arenaCli, outputRoot, runIdsIn } from "../support/cli.ts";
import { fakeProvider } from "../support/fake-provider.ts";
import { liveEnv, liveRunArgs, sumReply, sumsArenas } from "../support/live-run.ts";
import { REPO_ROOT } from "../support/reference.ts";

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";

describe("live runs judged for CI (real CLI)", () => {
  it("by thresholds: met exits 0, one lane below exits 1 naming it; no judgement asked exits 0 and says so; a bad file is exit 2 before any request", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArenas(4);
    // Half the items right: s-1 and s-3.
    const provider = await fakeProvider((_n, body) => sumReply(body, (k) => k % 2 === 1));
    try {
      const live = liveEnv(env, provider.baseUrl);
      const met = await arenaCli(liveRunArgs(arenas, "--min-pass-rate", "0.5"), live);
      expect(met.exitCode, met.stdout + met.stderr).toBe(0);
      expect(met.stdout).toContain("sums/vanilla: 2/4 50% ≥ 50% (--min-pass-rate)\n");
      expect(lastLine(met.stdout)).toMatch(/^judged by thresholds: all 1 lane\(s\) at or above their minimum pass rate; summary: /);
      expect(met.stdout).not.toContain("not expected to");
      expect(met.stdout).not.toContain("--update-expected");

      const file = path.join(root, "thresholds.toml");
      writeFileSync(file, `min_pass_rate = 0.1\n\n[[threshold]]\narena = "sums"\nframework = "vanilla"\nmin_pass_rate = 0.75\n`);
      const below = await arenaCli(liveRunArgs(arenas, "--thresholds", file), live);
      expect(below.exitCode, below.stdout + below.stderr).toBe(1);
      expect(below.stdout).toContain(`sums/vanilla: 2/4 50% < 75% (${path.relative(REPO_ROOT, file)}:3) — below its threshold\n`);
      expect(lastLine(below.stdout)).toMatch(/^judged by thresholds: 1 of 1 lane\(s\) below their minimum pass rate \(first: sums\/vanilla 50% < 75%\); summary: /);

      // A file whose only entry names no arena of the run (a typo) gates nothing: a warning, and exit 1, not a silent pass.
      writeFileSync(file, `[[threshold]]\narena = "sum"\nmin_pass_rate = 0.1\n`);
      const typo = await arenaCli(liveRunArgs(arenas, "--thresholds", file), live);
      expect(typo.exitCode, typo.stdout + typo.stderr).toBe(1);
      expect(typo.stderr).toContain(`warning: ${path.relative(REPO_ROOT, file)}:1: threshold[0]: matches no arena × framework of this run\n`);
      expect(typo.stderr).toMatch(/^warning: no threshold for sums\/vanilla: not judged$/m);
      expect(lastLine(typo.stdout)).toMatch(/^judged by thresholds: no lane of this run has a threshold, so none was judged; summary: /);

      const unjudged = await arenaCli(liveRunArgs(arenas), live);
      expect(unjudged.exitCode, unjudged.stdout + unjudged.stderr).toBe(0);
      expect(lastLine(unjudged.stdout)).toMatch(/^live run not judged \(the expectations file pins the mock's wiring only; judge a live run with --min-pass-rate P, --thresholds FILE or --baseline RUN\); summary: /);

      const runs = runIdsIn(root).length;
      const requests = provider.completions();
      writeFileSync(file, `[[threshold]]\narena = "sums"\nmin_pass_rate = 75\n`);
      const bad = await arenaCli(liveRunArgs(arenas, "--thresholds", file), live);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr.trim().split("\n")).toEqual([
        `arena run: ${path.relative(REPO_ROOT, file)}:3: threshold[0].min_pass_rate: must be a number from 0 to 1 (a fraction: 0.8 is 80%), got 75`,
      ]);
      const badFlag = await arenaCli(liveRunArgs(arenas, "--min-pass-rate", "80%"), live);
      expect(badFlag.exitCode).toBe(2);
      expect(badFlag.stderr).toContain("--min-pass-rate: '80%' is not a number");
      expect(provider.completions()).toBe(requests);
      expect(runIdsIn(root)).toHaveLength(runs);
    } finally {
      await provider.close();
    }
  }, 180_000);

  it("by a baseline run: a significant loss exits 1 naming the lane; the same loss under a stricter --alpha, or no loss, exits 0", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArenas(6);
    let healthy = true;
    const provider = await fakeProvider((_n, body) => sumReply(body, () => healthy));
    try {
      const live = liveEnv(env, provider.baseUrl);
      const base = await arenaCli(liveRunArgs(arenas), live);
      expect(base.exitCode, base.stdout + base.stderr).toBe(0);
      const [baseId] = runIdsIn(root);

      healthy = false;
      // 6 of 6 lost: McNemar's exact two-sided p = 2 / 2^6 = 0.031.
      const regressed = await arenaCli(liveRunArgs(arenas, "--baseline", baseId!), live);
      expect(regressed.exitCode, regressed.stdout + regressed.stderr).toBe(1);
      expect(regressed.stdout).toContain("baseline sums/vanilla: 6/6 100% [61–100] → 0/6 0% [0–39], lost 6, gained 0, p 0.031: REGRESSION\n");
      expect(lastLine(regressed.stdout)).toMatch(new RegExp(`^judged by baseline: 1 regression\\(s\\) from baseline ${baseId} \\(--alpha 0.05\\): sums/vanilla; summary: `));
      const strict = await arenaCli(liveRunArgs(arenas, "--baseline", baseId!, "--alpha", "0.01"), live);
      expect(strict.exitCode, strict.stdout + strict.stderr).toBe(0);
      expect(strict.stdout).toContain("p 0.031: lost (not significant)");

      healthy = true;
      const same = await arenaCli(liveRunArgs(arenas, "--baseline", baseId!, "--min-pass-rate", "1"), live);
      expect(same.exitCode, same.stdout + same.stderr).toBe(0);
      expect(lastLine(same.stdout)).toMatch(
        new RegExp(`^judged by thresholds and baseline: all 1 lane\\(s\\) at or above their minimum pass rate; no regression from baseline ${baseId} \\(--alpha 0.05\\); summary: `),
      );
    } finally {
      await provider.close();
    }
  }, 180_000);

  it("--update-expected, --expectations and --strict are refused on a live run, and --baseline on a mock one: exit 2, one line, nothing ran", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArenas(2);
    const provider = await fakeProvider((_n, body) => sumReply(body, () => false));
    const shipped = path.join(REPO_ROOT, "arenas", "expectations.toml");
    const before = readFileSync(shipped, "utf8");
    try {
      const live = liveEnv(env, provider.baseUrl);
      const update = await arenaCli(liveRunArgs(arenas, "--update-expected"), live);
      expect(update.exitCode).toBe(2);
      expect(update.stderr.trim().split("\n")).toEqual([
        "arena run: refusing --update-expected on a live run: the expectations file pins the mock's wiring, and a live model's failures differ from run to run (judge a live run with --min-pass-rate P, --thresholds FILE or --baseline RUN)",
      ]);
      expect(existsSync(path.join(arenas, "expectations.toml"))).toBe(false);
      const expectations = await arenaCli(liveRunArgs(arenas, "--expectations", shipped), live);
      expect(expectations.exitCode).toBe(2);
      expect(expectations.stderr).toContain("--expectations judges a mock run");
      const strict = await arenaCli(liveRunArgs(arenas, "--strict"), live);
      expect(strict.exitCode).toBe(2);
      expect(strict.stderr).toContain("for a live run every item passing is --min-pass-rate 1");
      expect(provider.completions()).toBe(0);
      expect(existsSync(path.join(root, "runs"))).toBe(false);

      const mock = await arenaCli(["run", "--arena", "tool_use", "--framework", "vanilla", "--baseline", "latest"], env);
      expect(mock.exitCode).toBe(2);
      expect(mock.stderr.trim()).toBe("arena run: --baseline judges a live run; a mock run is judged by the expectations file (--expectations)");
      expect(readFileSync(shipped, "utf8")).toBe(before);
    } finally {
      await provider.close();
    }
  }, 120_000);
});
