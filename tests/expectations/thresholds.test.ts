/**
 * The thresholds a live run is judged by (expectations/thresholds.ts, live.ts): the file's
 * mistakes are one line naming the file, line and field; the most specific threshold applies; a
 * lane below its rate fails, the provider's own failures are not counted, and a declared
 * unavailable lane is not judged while a lane that failed to build is.
 */
import { describe, expect, it } from "vitest";
import { judgeThresholds, loadThresholds, thresholdFor, ThresholdsError, type ComparedRecord } from "../../orchestrator/expectations/index.ts";
import { tempDir } from "./support.ts";
import { writeFileSync } from "node:fs";
import path from "node:path";

function file(text: string): string {
  const f = path.join(tempDir(), "thresholds.toml");
  writeFileSync(f, text);
  return f;
}

function problem(text: string): string {
  const f = file(text);
  try {
    loadThresholds(f, undefined, { cwd: path.dirname(f) });
  } catch (err) {
    expect(err).toBeInstanceOf(ThresholdsError);
    return (err as Error).message;
  }
  throw new Error("loaded");
}

const GOOD = `# shared floor
min_pass_rate = 0.5

[[threshold]]
arena = "tool_use"
min_pass_rate = 0.8

[[threshold]]
arena = "tool_use"
framework = "vanilla"
min_pass_rate = 1
`;

describe("the thresholds file", () => {
  it("bad input is one line: file:line: field: problem", () => {
    expect(problem(`[[threshold]]\narena = "a"\nmin_pass_rate = 1.5\n`)).toBe("thresholds.toml:3: threshold[0].min_pass_rate: must be a number from 0 to 1 (a fraction: 0.8 is 80%), got 1.5");
    expect(problem(`min_pass_rate = "80%"\n`)).toBe("thresholds.toml:1: min_pass_rate: must be a number from 0 to 1, got str");
    expect(problem(`[[threshold]]\narena = "a"\n\n[[threshold]]\narena = "b"\nframework = "x"\nmin_pass_rate = -0.1\n`)).toBe(
      "thresholds.toml:1: threshold[0].min_pass_rate: missing (a number from 0 to 1)",
    );
    expect(problem(`[[threshold]]\narena = "a"\nmin_pass_rate = 0.1\n\n[[threshold]]\narena = "b"\nframework = "x"\nmin_pass_rate = -0.1\n`)).toBe(
      "thresholds.toml:8: threshold[1].min_pass_rate: must be a number from 0 to 1 (a fraction: 0.8 is 80%), got -0.1",
    );
    expect(problem(`[[threshold]]\narena = "a"\nmin_pass_rate = 0.1\n\n[[threshold]]\narena = "a"\nmin_pass_rate = 0.2\n`)).toBe(
      "thresholds.toml:5: threshold[1]: a already has a threshold (line 1)",
    );
    expect(problem(`[[threshold]]\narena = "a"\nframwork = "x"\nmin_pass_rate = 0.1\n`)).toBe("thresholds.toml:3: threshold[0].framwork: unknown key (known: arena, framework, min_pass_rate)");
    expect(problem(`default = 0.5\n`)).toBe("thresholds.toml:1: default: unknown key (known: min_pass_rate, threshold)");
    expect(problem(`[[threshold]]\narena = 3\nmin_pass_rate = 0.1\n`)).toBe("thresholds.toml:2: threshold[0].arena: must be a string, got int");
    expect(problem(`min_pass_rate = nan\n`)).toMatch(/^thresholds.toml:1: min_pass_rate: must be a number from 0 to 1 .*got NaN$/);
    expect(problem(`min_pass_rate = = 1\n`)).toMatch(/^thresholds.toml:1: invalid TOML/);
    expect(() => loadThresholds(path.join(tempDir(), "none.toml"), undefined, { cwd: "/" })).toThrow(/none\.toml:1: no such file/);
  });

  it("the most specific threshold applies: arena × framework, then arena, then --min-pass-rate, then the file's floor", () => {
    const t = loadThresholds(file(GOOD), 0.6, { cwd: "/" });
    expect(thresholdFor(t, "tool_use", "vanilla")?.min).toBe(1);
    expect(thresholdFor(t, "tool_use", "langgraph")?.min).toBe(0.8);
    expect(thresholdFor(t, "resilience", "vanilla")).toEqual({ min: 0.6, source: "--min-pass-rate" });
    const fileOnly = loadThresholds(file(GOOD), undefined, { cwd: "/" });
    expect(thresholdFor(fileOnly, "resilience", "vanilla")?.min).toBe(0.5);
    const none = loadThresholds(file(`[[threshold]]\narena = "a"\nmin_pass_rate = 0.1\n`), undefined, { cwd: "/" });
    expect(thresholdFor(none, "b", "vanilla")).toBeUndefined();
  });
});

const cell = (passed: boolean, error_class?: "infra" | "adapter") => ({ item_id: "x", repeat: 0, passed, violations: [], error: error_class ? "e" : null, ...(error_class ? { error_class } : {}) });

function run(lanes: ComparedRecord["frameworks"]): ComparedRecord[] {
  return [{ arena: "sums", mode: "live", frameworks: lanes }];
}

describe("judging a live run by thresholds", () => {
  const t = loadThresholds(undefined, 0.5);

  it("a lane at its rate passes, one below fails; adapter errors count, the provider's own (infra) do not", () => {
    const j = judgeThresholds(
      run([
        { framework: "a", available: true, items: [cell(true), cell(false)] },
        { framework: "b", available: true, items: [cell(true), cell(false), cell(false, "adapter")] },
        { framework: "c", available: true, items: [cell(true), cell(false, "infra"), cell(false, "infra")] },
      ]),
      t,
    );
    expect(j.lanes.map((l) => [l.framework, l.passed, l.cells, l.ok])).toEqual([
      ["a", 1, 2, true],
      ["b", 1, 3, false],
      ["c", 1, 1, true],
    ]);
  });

  it("a declared unavailable lane is not judged; a lane that failed to build, or has no counted cell, fails", () => {
    const j = judgeThresholds(
      run([
        { framework: "u", available: false, unavailable_kind: "unsupported", reason: "no", items: [] },
        { framework: "f", available: false, unavailable_kind: "build_failed", reason: "boom", items: [] },
        { framework: "e", available: true, items: [cell(false, "infra")] },
      ]),
      t,
    );
    expect(j.lanes.map((l) => [l.framework, l.ok, l.unavailable])).toEqual([
      ["f", false, "boom"],
      ["e", false, undefined],
    ]);
  });

  it("an entry that matches no lane is reported; a lane no threshold covers is unjudged", () => {
    const only = loadThresholds(file(`[[threshold]]\narena = "sum"\nmin_pass_rate = 0.1\n`), undefined, { cwd: "/" });
    const j = judgeThresholds(run([{ framework: "a", available: true, items: [cell(true)] }]), only);
    expect(j.unmatched.map((e) => [e.arena, e.line])).toEqual([["sum", 1]]);
    expect(j.unjudged).toEqual([{ arena: "sums", framework: "a" }]);
    expect(j.lanes).toEqual([]);
  });
});
