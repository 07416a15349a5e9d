/**
 * `arena probe` as users run it (a child process of the real executable, like tests/cli/e2e):
 * a fixture caught by the probe named for it, an author's module that breaks a rule exiting 1,
 * and the mistakes that must say what is wrong before anything runs.
 */
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { ARENA_FIXTURES, FIXTURES } from "../../fixtures/catalogue.ts";
import { hostileIndex, PROBES } from "../../orchestrator/probes/registry.ts";
import { REPO_ROOT } from "../support/reference.ts";

const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
const arena = (args: string[], cwd = REPO_ROOT) => execa(process.execPath, [BIN, "probe", ...args], { cwd, reject: false });

describe("the registry names each fixture of its probes' suites", () => {
  it("every fixture once, and every fixture the catalogue says a registry probe catches", () => {
    const named = PROBES.flatMap((p) => p.hostile.map((h) => h.fixture));
    expect(new Set(named).size).toBe(named.length);
    const ids = new Set(PROBES.map((p) => `tests/probes/${p.id}.test.ts`));
    const claimed = [...Object.values(FIXTURES), ...Object.values(ARENA_FIXTURES)].filter((f) => ids.has(f.caughtBy)).map((f) => f.name);
    expect([...hostileIndex().keys()].sort()).toEqual(claimed.sort());
  });
});

describe("arena probe (child process)", () => {
  it("--fixtures --probe prompt: hardcoded-prompt is caught, exit 0", async () => {
    const r = await arena(["--fixtures", "--probe", "prompt"]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "fixture           probe      verdict",
      "hardcoded-prompt  §1 prompt  caught",
      "",
      "all 1 fixture(s) caught by the probe named for them (controls pass)",
    ]);
    expect(r.stderr).toContain("arena probe: fixture 1/1: hardcoded-prompt (prompt): caught");
  }, 300_000);

  it("--adapter <a fixture module, cwd-relative> --probe iteration-cap: both caps FAIL, exit 1", async () => {
    const r = await arena(["--adapter", "adapters/cap-plus-one/index.ts", "--probe", "iteration-cap"], path.join(REPO_ROOT, "fixtures"));
    expect(r.exitCode, r.stderr).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines.slice(0, 2)).toEqual(["rule              cap-plus-one", "§3 iteration-cap  FAIL"]);
    // The caps are drawn per run: two different ones, each served cap + 1 times.
    const fails = lines.flatMap((l) => {
      const m = /^FAIL {3}§3 iteration-cap × cap-plus-one \[cap-(\d+)\]: served (\d+) LLM requests with max_tool_iterations = (\d+) \(must be exactly (\d+)\)$/.exec(l);
      return m ? [m.slice(1).map(Number)] : [];
    });
    expect(fails.length, r.stdout).toBe(2);
    for (const [cap, served, stated, exact] of fails) expect([served, stated, exact]).toEqual([cap! + 1, cap, cap]);
    expect(fails[0]![0]).not.toBe(fails[1]![0]);
    expect(lines.at(-1)).toBe("1 rule × adapter cell(s) FAIL: exit 1");
  }, 300_000);

  it("an --adapter path that does not exist, an unknown --probe or --framework: exit 2, said plainly, nothing run", async () => {
    const missing = await arena(["--adapter", "./no-such-adapter/index.ts"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`arena probe: --adapter ./no-such-adapter/index.ts: no such file (${path.join(REPO_ROOT, "no-such-adapter/index.ts")})`);
    expect(missing.stdout).toBe("");
    const probe = await arena(["--probe", "nope"]);
    expect(probe.exitCode).toBe(2);
    expect(probe.stderr).toContain('--probe: no probe "nope" (known: prompt, declared-tools');
    const framework = await arena(["--framework", "nope"]);
    expect(framework.exitCode).toBe(2);
    expect(framework.stderr).toContain('--framework: no adapter "nope" in the catalogue');
    expect(`${missing.stderr}${probe.stderr}${framework.stderr}`).not.toMatch(/\n\s+at /);
  }, 60_000);
});
