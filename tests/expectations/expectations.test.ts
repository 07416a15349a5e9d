import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  acceptable,
  compareWithExpectations,
  DEFAULT_PREAMBLE,
  ExpectationsError,
  loadExpectations,
  REASON_PLACEHOLDER,
  renderDiff,
  renderDifference,
  serializeExpectations,
  unwrittenReasons,
  updateExpectations,
  type ComparedFramework,
  type ComparedItem,
  type ComparedRecord,
  type Difference,
} from "../../orchestrator/expectations/index.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { REPO_ROOT } from "../support/reference.ts";

// Compile-time: the CLI passes RunRecords straight in (checked by `pnpm typecheck`).
export function acceptsRunRecords(records: RunRecord[]): readonly ComparedRecord[] {
  return records;
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "arena-expectations-"));
  roots.push(dir);
  return dir;
}

/** Writes `text` as <tmp>/expectations.toml; returns its path. */
function writeFile(text: string): string {
  const file = path.join(tempDir(), "expectations.toml");
  writeFileSync(file, text);
  return file;
}

/** The error loading `text` gives, with the file shown by its base name (cwd = its folder). */
function loadError(text: string): ExpectationsError {
  const file = writeFile(text);
  try {
    loadExpectations(file, { cwd: path.dirname(file) });
  } catch (err) {
    if (err instanceof ExpectationsError) return err;
    throw err;
  }
  throw new Error("expected the file not to load");
}

const entry = (fields: string): string => `[[expected]]\n${fields.trim()}\n`;
const OA = `mode = "mock"\narena = "resilience"\nframework = "openai_agents"\nitems = ["res-02"]\nreason = "raises on an unknown tool"`;
const LG = `mode = "mock"\narena = "resilience"\nframework = "langgraph"\nitems = ["res-01"]\nreason = "ends the run on malformed JSON"`;

function item(item_id: string, passed: boolean, extra: Partial<ComparedItem> = {}): ComparedItem {
  return { item_id, repeat: 0, passed, error: null, ...extra };
}
function lane(framework: string, items: ComparedItem[], extra: Partial<ComparedFramework> = {}): ComparedFramework {
  return { framework, available: true, items, ...extra };
}
function record(arena: string, frameworks: ComparedFramework[], mode: "mock" | "live" = "mock"): ComparedRecord {
  return { arena, mode, frameworks };
}
/** The resilience run as mock mode produces it: the two known findings. */
function resilienceRun(overrides: { oa02?: boolean; lg01?: boolean } = {}): ComparedRecord {
  return record("resilience", [
    lane("vanilla", [item("res-01", true), item("res-02", true)]),
    lane("openai_agents", [
      item("res-01", true),
      overrides.oa02 ?? false
        ? item("res-02", true)
        : item("res-02", false, { error: "ModelBehaviorError: Tool slide_rule not found in agent assistant.", error_class: "adapter" }),
    ]),
    lane("langgraph", [item("res-01", overrides.lg01 ?? false), item("res-02", true)]),
  ]);
}
const known = () => loadExpectations(writeFile(entry(OA) + "\n" + entry(LG)));

describe("loadExpectations", () => {
  it("a missing file expects nothing", () => {
    const e = loadExpectations(path.join(tempDir(), "expectations.toml"));
    expect(e.exists).toBe(false);
    expect(e.entries).toEqual([]);
  });

  it("reads entries, the top-of-file comments and the comments directly above an entry", () => {
    const e = loadExpectations(writeFile(`# top\n# more\n\n# about oa\n${entry(OA)}\n# about lg\n${entry(LG)}`));
    expect(e.preamble).toBe("# top\n# more\n\n");
    expect(e.entries.map((x) => [x.framework, x.items, x.reason, x.comments])).toEqual([
      ["openai_agents", ["res-02"], "raises on an unknown tool", ["# about oa"]],
      ["langgraph", ["res-01"], "ends the run on malformed JSON", ["# about lg"]],
    ]);
  });

  it("allows two entries for one mode × arena × framework when their items differ (each keeps its reason)", () => {
    const e = loadExpectations(writeFile(entry(OA) + entry(OA.replace("res-02", "res-03").replace("raises", "hangs"))));
    expect(e.entries.map((x) => [x.items, x.reason])).toEqual([
      [["res-02"], "raises on an unknown tool"],
      [["res-03"], "hangs on an unknown tool"],
    ]);
  });

  it("names the file relative to the working directory", () => {
    const file = writeFile(entry(OA.replace('"mock"', '"replay"')));
    expect(() => loadExpectations(file, { cwd: path.dirname(path.dirname(file)) })).toThrow(
      `${path.basename(path.dirname(file))}/expectations.toml:2: expected[0].mode: must be mock or live, got 'replay'`,
    );
  });

  // Each case: the file, the exact message, the kind.
  const cases: [string, string, string, string][] = [
    ["bad TOML", `[[expected]]\nmode = "mock"\narena = \n`, "expectations.toml:3: invalid TOML (", "syntax"],
    ["an unknown top-level key", `# c\nversion = 1\n${entry(OA)}`, "expectations.toml:2: version: unknown key (the file holds only [[expected]] entries)", "unknown_key"],
    ["an unknown table", `${entry(OA)}\n[settings]\nx = 1\n`, "expectations.toml:8: settings: unknown key (the file holds only [[expected]] entries)", "unknown_key"],
    [
      "an unknown entry key",
      entry(OA.replace("items", "itmes")),
      "expectations.toml:5: expected[0].itmes: unknown key (known: mode, arena, framework, rule, items, reason)",
      "unknown_key",
    ],
    ["expected that is not tables", `expected = 1\n`, "expectations.toml:1: expected: must be [[expected]] tables, got int", "wrong_type"],
    ["a number for a string", entry(OA.replace('"resilience"', "1")), "expectations.toml:3: expected[0].arena: must be a string, got int", "wrong_type"],
    ["a string for items", entry(OA.replace('["res-02"]', '"res-02"')), "expectations.toml:5: expected[0].items: must be a list of item ids, got str", "wrong_type"],
    ["a number among the items", entry(OA.replace('["res-02"]', '["res-02", 3]')), "expectations.toml:5: expected[0].items[1]: must be a string, got int", "wrong_type"],
    ["a mode that is not mock or live", entry(OA.replace('"mock"', '"replay"')), "expectations.toml:2: expected[0].mode: must be mock or live, got 'replay'", "bad_value"],
    ["a missing mode", entry(OA.replace('mode = "mock"\n', "")), "expectations.toml:1: expected[0].mode: missing (mock or live)", "missing"],
    ["a missing reason", entry(OA.replace(/reason = .*/, "")), "expectations.toml:1: expected[0].reason: missing (say why these items fail)", "missing"],
    ["a blank reason", entry(OA.replace(/reason = .*/, 'reason = "  "')), "expectations.toml:6: expected[0].reason: is empty (say why these items fail)", "empty"],
    ["missing items", entry(OA.replace(/items = .*\n/, "")), "expectations.toml:1: expected[0].items: missing (the ids of the items expected to fail)", "missing"],
    ["empty items", entry(OA.replace('["res-02"]', "[]")), "expectations.toml:5: expected[0].items: is empty (list the items expected to fail, or remove the entry)", "empty"],
    [
      "an item listed twice in one entry",
      entry(OA.replace('["res-02"]', '["res-02",\n  "res-02"]')),
      "expectations.toml:5: expected[0].items[1]: 'res-02' is already listed for mock × resilience × openai_agents (line 5)",
      "duplicate",
    ],
    [
      "a duplicate entry for the same mode × arena × framework",
      `${entry(OA)}\n${entry(LG)}\n${entry(OA.replace("raises", "still raises"))}`,
      "expectations.toml:19: expected[2].items[0]: 'res-02' is already listed for mock × resilience × openai_agents (line 5)",
      "duplicate",
    ],
  ];
  it.each(cases)("%s is an ExpectationsError at its line", (_name, text, message, kind) => {
    const err = loadError(text);
    expect(err.message.startsWith(message)).toBe(true);
    if (kind !== "syntax") expect(err.message).toBe(message);
    expect(err.kind).toBe(kind);
    expect(err.file).toBe("expectations.toml");
  });

  it("splits message parts into fields", () => {
    const err = loadError(entry(OA.replace('"mock"', '"replay"')));
    expect([err.line, err.field, err.problem]).toEqual([2, "expected[0].mode", "must be mock or live, got 'replay'"]);
  });

  it("the same item under another framework or mode is not a duplicate", () => {
    const e = loadExpectations(writeFile(entry(OA) + entry(OA.replace("openai_agents", "langgraph")) + entry(OA.replace('"mock"', '"live"'))));
    expect(e.entries).toHaveLength(3);
  });

  it("a `[[expected]]` line inside a multi-line reason is not taken for an entry", () => {
    const tricky = OA.replace(/reason = .*/, 'reason = """\nsee below\n[[expected]]\n"""');
    const err = loadError(`${entry(tricky)}\n${entry(LG.replace('"mock"', '"replay"'))}`);
    expect(err.message).toBe("expectations.toml:12: expected[1].mode: must be mock or live, got 'replay'");
  });

  it("a directory is unreadable, not missing", () => {
    const dir = path.join(tempDir(), "expectations.toml");
    mkdirSync(dir);
    const err = (() => {
      try {
        loadExpectations(dir, { cwd: path.dirname(dir) });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ExpectationsError);
    expect((err as ExpectationsError).kind).toBe("unreadable");
    expect((err as ExpectationsError).message).toMatch(/^expectations\.toml:1: /);
  });
});

describe("the checked-in arenas/expectations.toml", () => {
  const file = path.join(REPO_ROOT, "arenas", "expectations.toml");

  it("lists the mock findings and the witness findings of every adapter, each with a written reason", () => {
    const e = loadExpectations(file);
    expect(e.entries.map((x) => [x.mode, x.arena, x.framework, x.rule ?? null, x.items])).toEqual([
      ["mock", "resilience", "openai_agents", null, ["res-02"]],
      ["mock", "resilience", "langgraph", null, ["res-01"]],
      ["mock", "resilience", "openai_agents", "tool-output", ["res-01"]],
      ["mock", "resilience", "langgraph", "tool-output", ["res-02", "res-04", "res-06", "res-09", "res-10"]],
      ["mock", "resilience", "ai_sdk", "tool-output", ["res-01", "res-02"]],
      ["mock", "resilience", "strands", null, ["res-01"]],
      ["mock", "resilience", "strands", "tool-output", ["res-02"]],
      ["mock", "resilience", "google_adk", null, ["res-02"]],
      ["mock", "resilience", "mastra", "tool-output", ["res-01", "res-02", "res-04", "res-06", "res-09", "res-10"]],
    ]);
    expect(unwrittenReasons(e)).toEqual([]);
    // The synthetic run carries no witness evidence: judge it by the failure entries alone.
    expect(compareWithExpectations([resilienceRun()], { ...e, entries: e.entries.filter((x) => !x.rule) }, "mock")).toEqual([]);
  });

  it("is in the form --update-expected writes, so an update never churns it", () => {
    const e = loadExpectations(file);
    expect(serializeExpectations(e.preamble, e.entries)).toBe(readFileSync(file, "utf8"));
  });
});

describe("compareWithExpectations", () => {
  it("a run with exactly the expected failures has no differences", () => {
    expect(compareWithExpectations([resilienceRun()], known(), "mock")).toEqual([]);
  });

  it("new_failure: a failed item nobody listed", () => {
    const run = record("tool_use", [lane("vanilla", [item("t-01", true), item("t-02", false)])]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "new_failure", arena: "tool_use", framework: "vanilla", item_id: "t-02", repeats: 1, failed_repeats: [0] },
    ]);
  });

  it("error: an errored item nobody listed, with its class and text", () => {
    const run = record("tool_use", [
      lane("vanilla", [item("t-01", false, { error: "LLM HTTP 503", error_class: "infra" }), item("t-02", false, { error: "worker exited" })]),
    ]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "error", arena: "tool_use", framework: "vanilla", item_id: "t-01", repeats: 1, failed_repeats: [0], error_class: "infra", error: "LLM HTTP 503" },
      // A record from before errors were classified: no class, still an error.
      { kind: "error", arena: "tool_use", framework: "vanilla", item_id: "t-02", repeats: 1, failed_repeats: [0], error: "worker exited" },
    ]);
  });

  it("now_passes: a listed item that passed", () => {
    expect(compareWithExpectations([resilienceRun({ lg01: true })], known(), "mock")).toEqual([
      { kind: "now_passes", arena: "resilience", framework: "langgraph", item_id: "res-01", repeats: 1, reason: "ends the run on malformed JSON" },
    ]);
  });

  it("lane_error: a framework whose build or load failed; declared unavailability is not a difference", () => {
    const run = record("resilience", [
      lane("a", [], { available: false, unavailable_kind: "build_failed", reason: "build failed: boom" }),
      lane("b", [], { available: false, unavailable_kind: "load_failed", reason: "cannot load" }),
      lane("c", [], { available: false, unavailable_kind: "unsupported", reason: "no resume" }),
      lane("d", [], { available: false, unavailable_kind: "stub", reason: "stub adapter" }),
      lane("e", [], { available: false, unavailable_kind: "not_installed", reason: "not installed" }),
      lane("f", [], { available: false, reason: "?" }),
    ]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "lane_error", arena: "resilience", framework: "a", unavailable_kind: "build_failed", reason: "build failed: boom" },
      { kind: "lane_error", arena: "resilience", framework: "b", unavailable_kind: "load_failed", reason: "cannot load" },
      // No kind recorded: not known to be benign, so it counts.
      { kind: "lane_error", arena: "resilience", framework: "f", reason: "?" },
    ]);
  });

  it("strict: listed failures are differences too, marked with the listed reason", () => {
    const diffs = compareWithExpectations([resilienceRun({ lg01: true })], known(), "mock", { strict: true });
    expect(diffs.map((d) => [d.kind, d.framework, "expected_reason" in d ? d.expected_reason : undefined])).toEqual([
      ["error", "openai_agents", "raises on an unknown tool"],
      ["now_passes", "langgraph", undefined],
    ]);
  });

  it("a partial run compares only what ran: listed items, frameworks and arenas left out are not now_passes", () => {
    const partial = record("resilience", [lane("openai_agents", [item("res-01", true)]), lane("vanilla", [item("res-02", true)])]);
    expect(compareWithExpectations([partial], known(), "mock")).toEqual([]);
    expect(compareWithExpectations([], known(), "mock")).toEqual([]);
  });

  it("repeats: failing on some repeats is still failing; now_passes needs every repeat to pass", () => {
    const reps = (id: string, passes: boolean[], extra: Partial<ComparedItem> = {}) =>
      passes.map((passed, repeat) => item(id, passed, { repeat, ...(passed ? {} : extra) }));
    const run = record("resilience", [
      lane("openai_agents", reps("res-02", [true, false, true])),
      lane("langgraph", reps("res-01", [true, true, true])),
      lane("vanilla", [...reps("res-03", [true, false, false]), ...reps("res-04", [false, true], { error: "boom", error_class: "timeout" })]),
    ]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "now_passes", arena: "resilience", framework: "langgraph", item_id: "res-01", repeats: 3, reason: "ends the run on malformed JSON" },
      { kind: "new_failure", arena: "resilience", framework: "vanilla", item_id: "res-03", repeats: 3, failed_repeats: [1, 2] },
      { kind: "error", arena: "resilience", framework: "vanilla", item_id: "res-04", repeats: 2, failed_repeats: [0], error_class: "timeout", error: "boom" },
    ]);
  });

  it("an item that failed on one repeat and errored on another is an error", () => {
    const run = record("tool_use", [lane("vanilla", [item("t-01", false), item("t-01", false, { repeat: 1, error: "boom", error_class: "adapter" })])]);
    expect(compareWithExpectations([run], known(), "mock")).toMatchObject([{ kind: "error", failed_repeats: [0, 1], error: "boom" }]);
  });

  it("entries of the other mode do not apply, and records of the other mode are refused", () => {
    const liveOnly = loadExpectations(writeFile(entry(LG.replace('"mock"', '"live"'))));
    expect(compareWithExpectations([resilienceRun({ oa02: true })], liveOnly, "mock")).toMatchObject([{ kind: "new_failure", framework: "langgraph" }]);
    expect(compareWithExpectations([record("resilience", [lane("langgraph", [item("res-01", false)])], "live")], liveOnly, "live")).toEqual([]);
    expect(() => compareWithExpectations([resilienceRun()], known(), "live")).toThrow("record of arena 'resilience' is a mock run, compared as live");
  });
});

describe("renderDiff", () => {
  const updateCommand = "pnpm bench --update-expected";
  const base = { arena: "resilience", framework: "langgraph", item_id: "res-01" };

  it("one line per difference, then the update command", () => {
    const diffs: Difference[] = [
      { kind: "new_failure", ...base, repeats: 1, failed_repeats: [0] },
      { kind: "new_failure", ...base, item_id: "res-03", repeats: 3, failed_repeats: [0, 2] },
      { kind: "error", ...base, item_id: "res-04", repeats: 1, failed_repeats: [0], error_class: "timeout", error: "TimeoutError: leg deadline\n  at x" },
      { kind: "error", ...base, item_id: "res-05", repeats: 1, failed_repeats: [0], error: "boom" },
      { kind: "now_passes", ...base, framework: "openai_agents", item_id: "res-02", repeats: 2, reason: "raises on an unknown tool" },
      { kind: "lane_error", arena: "rag", framework: "langgraph", unavailable_kind: "build_failed", reason: "build failed: Cannot find module" },
    ];
    expect(renderDiff(diffs, { updateCommand })).toEqual([
      "resilience/langgraph/res-01: fails, not expected to",
      "resilience/langgraph/res-03: fails (2 of 3 repeats), not expected to",
      "resilience/langgraph/res-04: timeout error, not expected to: TimeoutError: leg deadline",
      "resilience/langgraph/res-05: error, not expected to: boom",
      "resilience/openai_agents/res-02: passes all 2 repeats, but is listed as expected to fail (raises on an unknown tool)",
      "rag/langgraph: did not run (build_failed): build failed: Cannot find module",
      "to accept these results as expected: pnpm bench --update-expected",
    ]);
  });

  it("cuts a long error to a short excerpt", () => {
    const [line] = renderDiff([{ kind: "error", ...base, repeats: 1, failed_repeats: [0], error_class: "adapter", error: "x".repeat(500) }], { updateCommand });
    expect(line).toBe(`resilience/langgraph/res-01: adapter error, not expected to: ${"x".repeat(159)}…`);
  });

  it("offers the update only when it would change the outcome", () => {
    expect(renderDiff([], { updateCommand })).toEqual([]);
    const laneOnly: Difference[] = [{ kind: "lane_error", arena: "rag", framework: "langgraph", unavailable_kind: "load_failed", reason: "x" }];
    expect(renderDiff(laneOnly, { updateCommand })).toEqual(["rag/langgraph: did not run (load_failed): x"]);
    const strictOnly: Difference[] = [{ kind: "new_failure", ...base, repeats: 1, failed_repeats: [0], expected_reason: "r" }];
    expect(renderDiff(strictOnly, { updateCommand })).toEqual(["resilience/langgraph/res-01: fails (listed as expected; --strict counts it)"]);
  });
});

describe("updateExpectations", () => {
  const ref = (framework: string, item_id: string, arena = "resilience", mode = "mock") => ({ mode, arena, framework, item_id });

  it("round trip: after an update the same run has no differences, and written reasons are kept", () => {
    const file = writeFile(`# top comment\n\n# about oa\n${entry(OA)}\n# about lg\n${entry(LG)}`);
    const run = [resilienceRun({ lg01: true }), record("tool_use", [lane("vanilla", [item("t-01", false), item("t-02", true)])])];
    expect(updateExpectations(file, run, "mock")).toEqual({
      added: [ref("vanilla", "t-01", "tool_use")],
      removed: [ref("langgraph", "res-01")],
      kept: [ref("openai_agents", "res-02")],
      written: true,
    });
    const after = loadExpectations(file);
    expect(compareWithExpectations(run, after, "mock")).toEqual([]);
    expect(after.preamble).toBe("# top comment\n\n");
    expect(after.entries.map((e) => [e.framework, e.items, e.reason, e.comments])).toEqual([
      ["openai_agents", ["res-02"], "raises on an unknown tool", ["# about oa"]],
      ["vanilla", ["t-01"], REASON_PLACEHOLDER, []],
    ]);
    expect(unwrittenReasons(after).map((e) => e.framework)).toEqual(["vanilla"]);
  });

  it("keeps entries for modes, arenas, frameworks and items that did not run", () => {
    const other = [
      OA.replace('"mock"', '"live"'),
      OA.replace('"resilience"', '"rag"'),
      OA.replace("openai_agents", "vanilla-multi"),
      LG.replace('["res-01"]', '["res-01", "res-09"]'),
    ];
    const file = writeFile(other.map(entry).join("\n"));
    const partial = record("resilience", [lane("langgraph", [item("res-01", true)])]);
    const result = updateExpectations(file, [partial], "mock");
    expect(result.removed).toEqual([ref("langgraph", "res-01")]);
    expect(result.added).toEqual([]);
    expect(result.kept).toEqual([ref("openai_agents", "res-02", "resilience", "live"), ref("openai_agents", "res-02", "rag"), ref("vanilla-multi", "res-02"), ref("langgraph", "res-09")]);
    expect(loadExpectations(file).entries.map((e) => [e.mode, e.arena, e.framework, e.items])).toEqual([
      ["live", "resilience", "openai_agents", ["res-02"]],
      ["mock", "rag", "openai_agents", ["res-02"]],
      ["mock", "resilience", "vanilla-multi", ["res-02"]],
      ["mock", "resilience", "langgraph", ["res-09"]],
    ]);
  });

  it("keeps an item failing on only some repeats, and leaves a lane that did not run alone", () => {
    const file = writeFile(entry(OA) + entry(LG));
    const run = record("resilience", [
      lane("openai_agents", [item("res-02", true), item("res-02", false, { repeat: 1 })]),
      lane("langgraph", [], { available: false, unavailable_kind: "build_failed", reason: "x" }),
    ]);
    expect(updateExpectations(file, [run], "mock")).toMatchObject({ added: [], removed: [], written: false });
  });

  it("a new failure beside a listed one gets its own entry after it, so the old reason does not cover it", () => {
    const file = writeFile(entry(OA) + entry(LG));
    const run = record("resilience", [lane("openai_agents", [item("res-02", false), item("res-05", false)])]);
    updateExpectations(file, [run], "mock");
    expect(loadExpectations(file).entries.map((e) => [e.framework, e.items, e.reason])).toEqual([
      ["openai_agents", ["res-02"], "raises on an unknown tool"],
      ["openai_agents", ["res-05"], REASON_PLACEHOLDER],
      ["langgraph", ["res-01"], "ends the run on malformed JSON"],
    ]);
  });

  it("an entry whose items all pass is removed with its comments", () => {
    const file = writeFile(`# top\n\n${entry(OA)}\n# about lg\n${entry(LG)}`);
    updateExpectations(file, [resilienceRun({ lg01: true })], "mock");
    expect(readFileSync(file, "utf8")).not.toContain("about lg");
    expect(readFileSync(file, "utf8")).toContain("# top\n");
  });

  it("nothing changed: the file is not touched, and no file is created", () => {
    const file = writeFile(`# hand formatted\n[[expected]]\nmode="mock"\narena="resilience"\nframework="openai_agents"\nitems=["res-02"]\nreason="r"\n`);
    const before = readFileSync(file, "utf8");
    const mtime = statSync(file).mtimeMs;
    expect(updateExpectations(file, [resilienceRun({ lg01: true })], "mock").written).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const absent = path.join(tempDir(), "expectations.toml");
    expect(updateExpectations(absent, [resilienceRun({ oa02: true, lg01: true })], "mock").written).toBe(false);
    expect(() => statSync(absent)).toThrow();
  });

  it("creates a missing file with the standard header", () => {
    const file = path.join(tempDir(), "expectations.toml");
    expect(updateExpectations(file, [resilienceRun()], "mock").added).toEqual([ref("openai_agents", "res-02"), ref("langgraph", "res-01")]);
    expect(readFileSync(file, "utf8").startsWith(DEFAULT_PREAMBLE)).toBe(true);
    expect(compareWithExpectations([resilienceRun()], loadExpectations(file), "mock")).toEqual([]);
  });

  it("writes reasons with quotes and newlines as valid TOML", () => {
    const file = writeFile(entry(OA.replace(/reason = .*/, 'reason = """a "quoted"\nsecond line"""')) + entry(LG));
    updateExpectations(file, [resilienceRun({ lg01: true })], "mock");
    expect(loadExpectations(file).entries[0]!.reason).toBe('a "quoted"\nsecond line');
  });

  it("refuses to overwrite a broken file", () => {
    const text = entry(OA.replace('"mock"', '"replay"'));
    const file = writeFile(text);
    expect(() => updateExpectations(file, [resilienceRun()], "mock")).toThrow(ExpectationsError);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});

describe("witness rule entries (rule = ...)", () => {
  const ref = (framework: string, item_id: string, arena = "resilience", mode = "mock") => ({ mode, arena, framework, item_id });
  const v = (rule: string) => ({ rule, leg: 1, request: 2, detail: `${rule} evidence` });
  const LG_RULE = `mode = "mock"\narena = "resilience"\nframework = "langgraph"\nrule = "tool-output"\nitems = ["res-02"]\nreason = "ToolNode answers an unknown tool with its own text"`;
  const run = (violations: ReturnType<typeof v>[]) =>
    record("resilience", [lane("langgraph", [item("res-01", false), item("res-02", true, { violations })])]);

  it("a violation nobody listed is a difference; a listed one is not; one that stopped is violation_gone", () => {
    const none = loadExpectations(writeFile(entry(LG)));
    expect(compareWithExpectations([run([v("tool-output")])], none, "mock")).toEqual([
      { kind: "violation", arena: "resilience", framework: "langgraph", item_id: "res-02", rule: "tool-output", detail: "leg 1 request 2: tool-output evidence" },
    ]);
    const listed = loadExpectations(writeFile(entry(LG) + "\n" + entry(LG_RULE)));
    expect(compareWithExpectations([run([v("tool-output")])], listed, "mock")).toEqual([]);
    expect(compareWithExpectations([run([v("tool-output"), v("model")])], listed, "mock").map((d) => d.kind)).toEqual(["violation"]);
    const gone = compareWithExpectations([run([])], listed, "mock");
    expect(gone).toEqual([
      { kind: "violation_gone", arena: "resilience", framework: "langgraph", item_id: "res-02", rule: "tool-output", reason: "ToolNode answers an unknown tool with its own text" },
    ]);
    expect(renderDifference(gone[0]!)).toBe(
      "resilience/langgraph/res-02: no longer breaks rule tool-output, but is listed as breaking it (ToolNode answers an unknown tool with its own text)",
    );
  });

  it("an unknown rule id is an ExpectationsError at its line", () => {
    expect(loadError(entry(LG_RULE.replace("tool-output", "vibes"))).message).toMatch(/^expectations\.toml:5: expected\[0\]\.rule: unknown rule 'vibes' \(known: model, /);
  });

  it("--update-expected lists new violations under their rule and drops the ones that stopped", () => {
    const file = writeFile(entry(LG));
    const update = updateExpectations(file, [run([v("tool-output")])], "mock");
    expect(update.added).toEqual([ref("langgraph", "res-02")]);
    const entries = loadExpectations(file).entries;
    expect(entries.map((e) => [e.rule ?? null, e.items])).toEqual([[null, ["res-01"]], ["tool-output", ["res-02"]]]);
    expect(compareWithExpectations([run([v("tool-output")])], loadExpectations(file), "mock")).toEqual([]);
    const again = updateExpectations(file, [run([])], "mock");
    expect(again.removed).toEqual([ref("langgraph", "res-02")]);
    expect(loadExpectations(file).entries.map((e) => e.rule ?? null)).toEqual([null]);
  });
});

describe("isolation violations of watched workers", () => {
  it("are a difference no update can accept", () => {
    const watched = record("resilience", [
      lane("vanilla", [item("res-01", true)], {
        isolation: { level: "watched", network: "shared", tool: "watcher (/proc)", violations: ["wrote /tmp/stray.json", "left pid 4242 running"] },
      }),
    ]);
    const diff = compareWithExpectations([watched], loadExpectations(writeFile(entry(LG))), "mock");
    expect(diff).toEqual([{ kind: "isolation_violation", arena: "resilience", framework: "vanilla", violations: ["wrote /tmp/stray.json", "left pid 4242 running"] }]);
    expect(renderDifference(diff[0]!)).toBe("resilience/vanilla: its watched worker broke isolation (2): wrote /tmp/stray.json");
    expect(acceptable(diff[0]!)).toBe(false);
    expect(renderDiff(diff, { updateCommand: "u" })).toEqual([renderDifference(diff[0]!)]);
  });
  it("a clean isolation record is no difference", () => {
    const sealed = record("resilience", [lane("vanilla", [item("res-01", true)], { isolation: { level: "sandbox", network: "sealed", tool: "bubblewrap 0.8.0" } })]);
    expect(compareWithExpectations([sealed], loadExpectations(writeFile(entry(LG))), "mock")).toEqual([]);
  });
});
