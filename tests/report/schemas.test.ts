import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { publishedSchemas, SCHEMA_DIR } from "../../orchestrator/report/published-schemas.ts";
import { FORMAT_VERSION, type RunRecord } from "../../orchestrator/report/record.ts";
import { renderCsv, renderJson, scorecardRows } from "../../orchestrator/report/scorecard.ts";
import { ScorecardJsonSchema } from "../../orchestrator/report/scorecard-schema.ts";
import { REPO_ROOT } from "../support/reference.ts";

const record: RunRecord = {
  schema: 1,
  format_version: FORMAT_VERSION,
  run_id: "20261201T000000000Z-abcdef",
  status: "complete",
  arena: "demo",
  arena_description: "d",
  mode: "mock",
  model: "mock-model",
  temperature: 0,
  repeat: 1,
  dataset_size: 1,
  started_at: "2026-12-01T00:00:00Z",
  duration_s: 1,
  harness_version: "0.1.0",
  node: "24.21.0",
  platform: "linux-x64",
  pricing: { input_per_m: 0, output_per_m: 0 },
  frameworks: [
    {
      framework: "vanilla",
      available: true,
      lib_version: "x",
      variant: false,
      items: [
        {
          repeat: 0,
          item_id: "d-01",
          passed: false,
          checks: [{ type: "contains", ok: false, detail: "expected substring 'x'", spec: { type: "contains", value: "x" } }],
          output_text: "",
          tool_calls: [],
          prompt_tokens: 3,
          completion_tokens: 1,
          latency_s: 0.1,
          llm_calls: 1,
          error: "boom",
          error_class: "adapter",
        },
      ],
    },
    { framework: "other", available: false, lib_version: "y", variant: true, reason: "not installed", items: [] },
  ],
};

describe("published schemas (docs/schema/)", () => {
  it("are what the zod schemas generate (regenerate: pnpm docs:schemas)", () => {
    for (const { file, text } of publishedSchemas()) {
      expect(readFileSync(path.join(REPO_ROOT, SCHEMA_DIR, file), "utf8"), file).toBe(text);
    }
  });

  it("describe the scorecard JSON the writer produces, key for key", () => {
    const rows = scorecardRows(record);
    const written = JSON.parse(renderJson(record, rows));
    expect(ScorecardJsonSchema.strict().safeParse(written).success).toBe(true);
    const shape = (ScorecardJsonSchema.shape.rows.element.options[0]!.shape) as Record<string, unknown>;
    expect(Object.keys(written.rows[0]).sort()).toEqual(Object.keys(shape).sort());
  });

  it("CSV booleans are spelled the JSON way", () => {
    const lines = renderCsv(scorecardRows(record)).split("\r\n");
    expect(lines[1]).toMatch(/^vanilla,true,/);
    expect(lines[2]).toMatch(/^other,false,/);
  });
});
