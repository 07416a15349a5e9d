/**
 * The item table's data and the client's filters: what an item expects in words, the one-line
 * cause per cell, repeats folded per item, violations counted once, questions from the run's own
 * dataset, and the filter counts the page shows equal to the scorecards' own figures.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cellCause, groupViolations } from "../../orchestrator/report/html/cause.ts";
import { buildReportData } from "../../orchestrator/report/html/data.ts";
import { checkExpectation, expectedText } from "../../orchestrator/report/html/expected.ts";
import { datasetInputs, manifestInputs } from "../../orchestrator/report/html/inputs.ts";
import { itemGroup } from "../../orchestrator/report/html/items.ts";
import type { ItemRow } from "../../orchestrator/report/html/types.ts";
import type { ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { scorecardRows, type AvailableRow } from "../../orchestrator/report/scorecard.ts";
import { fingerprintArena } from "../../orchestrator/store/manifest.ts";
import { clientFunctions } from "./client-module.ts";
import { fixtureRecords, fixtureTranscript, item, lane, record, RUN_ID } from "./fixture.ts";

interface Counts {
  counts: Record<string, number>;
  classes: Record<string, number>;
  rules: Record<string, number>;
}
const client = clientFunctions<{
  filterCounts: (rows: ItemRow[], scope: { arena: string; series: number }) => Counts;
  rowKept: (row: ItemRow, filter: string, scope: { arena: string; series: number }) => boolean;
}>(["item-filters.js"], ["filterCounts", "rowKept"]);

const check = (type: string, ok: boolean, spec: Record<string, unknown>, detail = `${type} detail`) => ({ type, ok, detail, spec: { type, ...spec } });

describe("the expected value, drawn from the checks", () => {
  it("words each check type from its spec", () => {
    expect(checkExpectation("contains", { value: "Paris" })).toBe('contains "Paris"');
    expect(checkExpectation("icontains", { value: "paris" })).toBe('contains "paris" (any case)');
    expect(checkExpectation("tool_used", { name: "calculator" })).toBe("tool_used calculator");
    expect(checkExpectation("numeric_equals", { value: 405, tol: 0 })).toBe("number 405");
    expect(checkExpectation("numeric_equals", { value: 8611, tol: 1 })).toBe("number 8611 ± 1");
    expect(checkExpectation("iregex", { value: "\\b1903\\b" })).toBe("matches /\\b1903\\b/i");
    expect(checkExpectation("call_counts", { counts: { search: 2, calculator: 1 } })).toBe("calls search ×2, calculator ×1");
    expect(checkExpectation("sentence_count", { min: 3, max: 5 })).toBe("3–5 sentences");
    expect(checkExpectation("json_schema", { schema: { required: ["name", "city"] } })).toBe("JSON with name, city");
    expect(checkExpectation("json_path_equals", { path: "$.year", value: 1889 })).toBe("$.year = 1889");
  });

  it("joins an item's checks in order, and shows an unknown type by its fields", () => {
    expect(expectedText([check("numeric_equals", true, { value: 405 }), check("tool_used", true, { name: "calculator" })])).toBe("number 405 · tool_used calculator");
    expect(checkExpectation("future_check", { type: "future_check", limit: 3 })).toBe('future_check {"limit":3}');
  });

  it("reads the spec, not the detail: an errored item's skipped checks still say what was wanted", () => {
    const skipped = { type: "icontains", ok: false, detail: "skipped: adapter error", spec: { type: "icontains", value: "Paris" } };
    expect(expectedText([skipped])).toBe('contains "Paris" (any case)');
  });
});

describe("the cause line", () => {
  const failing = (n: number) => Array.from({ length: n }, (_, i) => check("icontains", false, { value: `v${i}` }, `expected substring (ci) 'v${i}'`));

  it("is empty for a pass, the failing check for a failure, and counts the other failing checks", () => {
    expect(cellCause(item("a"))).toBe("");
    expect(cellCause(item("a", { passed: false, checks: failing(1) }))).toBe("icontains: expected substring (ci) 'v0'");
    expect(cellCause(item("a", { passed: false, checks: failing(3) }))).toBe("icontains: expected substring (ci) 'v0' (+2 more failing checks)");
  });

  it("names an error's class and text, and for an unserved cell what the provider did", () => {
    expect(cellCause(item("a", { passed: false, error: "budget exhausted", error_class: "adapter" }))).toBe("adapter error: budget exhausted");
    const infra = item("a", { passed: false, error: "HTTP 503 from the provider", error_class: "infra", provider_faults: [{ leg: 1, fault: "server_error", status: 503 }] });
    expect(cellCause(infra)).toBe("not served: the provider failed (503) — HTTP 503 from the provider");
  });

  it("counts a violation the witness saw on several requests once", () => {
    const seen = { rule: "tool-output", leg: 1, detail: "calculator({}): expected 4, seen 5" };
    const grouped = groupViolations([{ ...seen, request: 2 }, { ...seen, request: 3 }, { rule: "model", leg: 1, request: 2, detail: "another" }]);
    expect(grouped).toEqual([{ ...seen, requests: [2, 3] }, { rule: "model", leg: 1, requests: [2], detail: "another" }]);
  });
});

describe("repeats folded per item", () => {
  it("counts passes over served repeats, numbers repeats from 1 and opens the first that did not pass", () => {
    const repeats = [
      item("a", { repeat: 0 }),
      item("a", { repeat: 1, passed: false, output_text: "Lyon", checks: [check("icontains", false, { value: "Paris" }, "expected substring (ci) 'paris'")] }),
      item("a", { repeat: 2 }),
      item("a", { repeat: 3, passed: false, error: "503", error_class: "infra" }),
    ];
    const g = itemGroup(repeats, [10, 11, 12, 13]);
    expect([g.status, g.passes, g.runs, g.notServed, g.shown]).toEqual(["partial", 2, 3, 1, 2]);
    expect(g.repeats.map((r) => [r.repeat, r.status, r.detail])).toEqual([
      [1, "pass", 10],
      [2, "fail", 11],
      [3, "pass", 12],
      [4, "unserved", 13],
    ]);
    expect([g.answer, g.cause]).toEqual(["Lyon", "icontains: expected substring (ci) 'paris'"]);
  });

  it("calls a group errored when no repeat passed and one errored, and unserved when none was served", () => {
    expect(itemGroup([item("a", { passed: false }), item("a", { repeat: 1, passed: false, error: "x", error_class: "timeout" })], [0, 1]).status).toBe("error");
    expect(itemGroup([item("a", { passed: false, error: "x", error_class: "infra" })], [0]).status).toBe("unserved");
  });
});

/** Every kind of cell a scorecard counts, over two repeats and two frameworks. */
function mixedRecord(): RunRecord {
  const history = { rule: "tool-output", leg: 1, detail: "calculator({}): expected 4, seen 5" };
  const infra = { passed: false, error: "connect ECONNRESET", error_class: "infra" as const, checks: [] };
  const r = (id: string, repeat: number, over: Partial<ItemRecord> = {}) => item(id, { repeat, ...over });
  return record(
    "mixed",
    [
      lane("vanilla", [
        r("a", 0), r("a", 1),
        r("b", 0, { passed: false }), r("b", 1),
        r("c", 0, { passed: false, error: "gave up", error_class: "adapter" }), r("c", 1, infra),
        r("d", 0, { violations: [{ ...history, request: 2 }, { ...history, request: 3 }, { rule: "model", leg: 1, detail: "m" }] }),
        r("d", 1, { passed: false, error: "deadline", error_class: "timeout", violations: [{ ...history, request: 2 }] }),
      ]),
      lane("fancy", [
        r("a", 0, { passed: false }), r("a", 1, { ...infra, violations: [{ ...history, request: 2 }] }),
        r("b", 0), r("b", 1),
        r("c", 0, { violations: [{ rule: "transcript", leg: 1, detail: "t" }] }), r("c", 1, { passed: false }),
        r("d", 0, { passed: false, error: "deadline", error_class: "timeout" }), r("d", 1),
      ]),
    ],
    { repeat: 2 },
  );
}

describe("filter counts equal the scorecards'", () => {
  const records = [mixedRecord(), ...fixtureRecords()];
  const data = buildReportData([{ runId: RUN_ID, records }], { generatedAt: "2026-12-01T09:00:00Z" });

  it("per arena and framework: passed, failed, errors, not served, rule violations, by class and by rule", () => {
    for (const rec of records) {
      for (const row of scorecardRows(rec).filter((x): x is AvailableRow => x.available)) {
        const series = data.series.findIndex((s) => s.id === row.framework);
        const { counts, classes, rules } = client.filterCounts(data.items, { arena: rec.arena, series });
        const where = `${rec.arena} × ${row.framework}`;
        expect(counts.passed, where).toBe(row.passed);
        expect(counts.failed, where).toBe(row.items - row.passed);
        expect(counts.errored, where).toBe(row.errors);
        expect(counts.unserved, where).toBe(row.not_served);
        expect(counts.violations, where).toBe(row.violations);
        expect(classes, where).toEqual(row.errors_by_class);
        expect(rules, where).toEqual(row.violations_by_rule);
      }
    }
  });

  it("over every framework, each count is the sum of the scorecard rows", () => {
    const rows = scorecardRows(records[0]!).filter((x): x is AvailableRow => x.available);
    const { counts } = client.filterCounts(data.items, { arena: "mixed", series: -1 });
    const sum = (f: (r: AvailableRow) => number) => rows.reduce((a, r) => a + f(r), 0);
    expect([counts.passed, counts.failed, counts.errored, counts.unserved, counts.violations]).toEqual([
      sum((r) => r.passed),
      sum((r) => r.items - r.passed),
      sum((r) => r.errors),
      sum((r) => r.not_served),
      sum((r) => r.violations),
    ]);
    // "Failed" includes the errored cells, as the scorecard's failed items do.
    expect(counts.failed).toBeGreaterThan(counts.errored!);
    expect(counts.errored).toBeGreaterThan(0);
  });

  it("keeps the rows that hold a counted cell", () => {
    const scope = { arena: "mixed", series: data.series.findIndex((s) => s.id === "vanilla") };
    const kept = (filter: string) => data.items.filter((row) => client.rowKept(row, filter, scope)).map((row) => row.itemId);
    expect(kept("failed")).toEqual(["b", "c", "d"]);
    expect(kept("unserved")).toEqual(["c"]);
    expect(kept("class:timeout")).toEqual(["d"]);
    expect(kept("rule:model")).toEqual(["d"]);
  });
});

describe("the question", () => {
  it("comes from the run's dataset while its files are the ones the run used", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "arena-inputs-"));
    writeFileSync(path.join(dir, "dataset.jsonl"), '# a comment\n{"id": "t-01", "input": "What is 2 + 2?", "checks": []}\n{"id": "t-02", "input": ["turn one", "turn two"]}\n');
    expect(datasetInputs(dir)).toEqual({ "t-01": "What is 2 + 2?", "t-02": '["turn one","turn two"]' });
    const sha256 = fingerprintArena(dir);
    expect(manifestInputs({ arenas: [{ id: "tool_use", path: dir, sha256 }] })).toEqual({ tool_use: datasetInputs(dir) });
    expect(manifestInputs({ arenas: [{ id: "tool_use", path: dir, sha256: "changed since" }] })).toEqual({});
  });

  it("falls back to the first user message of the item's transcript", () => {
    const data = buildReportData([{ runId: RUN_ID, records: fixtureRecords(), transcripts: [fixtureTranscript()], inputs: { resilience: { "r-01": "from the dataset" } } }], { generatedAt: "x" });
    expect(data.items.find((r) => r.key === "resilience/r-01")!.input).toBe("from the dataset");
    // vanilla kept no transcript of t-02; fancy did.
    expect(data.items.find((r) => r.key === "tool_use/t-02")!.input).toBe("What is the capital?");
    expect(data.items.find((r) => r.key === "tool_use/t-01")!.input).toBe("");
  });
});

describe("the item link", () => {
  type Link = { arena: string; itemId: string; series: string; repeat: number };
  const link = clientFunctions<{ itemHash: (l: Link) => string; parseItemHash: (h: string) => Link | null }>(["item-link.js"], ["itemHash", "parseItemHash"]);

  it("encodes each segment, so a combined report's series id is one segment, and reads it back", () => {
    const cell = { arena: "tool_use", itemId: "t 01/β", series: "R2/vanilla", repeat: 3 };
    expect(link.itemHash(cell)).toBe("#tool_use/t%2001%2F%CE%B2/R2%2Fvanilla/3");
    expect(link.parseItemHash(link.itemHash(cell))).toEqual(cell);
  });

  it("is null for a section anchor, a repeat that is not 1-based, or a broken escape", () => {
    for (const hash of ["#items", "", "#tool_use/t-01/vanilla/0", "#tool_use/t-01/vanilla/x", "#tool_use/t-01/%E0%A4%A/1", "#a/b/c/d/1"]) {
      expect(link.parseItemHash(hash), hash).toBeNull();
    }
  });
});
