/**
 * §7 Tool-schema fidelity (seed document 000): on tool_use, human_in_the_loop and durable_state
 * (plus rag, resilience, multi_agent), every canonical parameter reaches the model with its type
 * and a description, and the arena's own tool description reaches it intact — which keeps
 * "Call this and stop; you will be told the decision." and "You will be resumed and can carry on
 * from where you left off." on the wire. The baseline is pinned to the canonical spec verbatim.
 *
 * Framework decorations (`strict`, `title`, `additionalProperties`, strict mode's widened
 * `required`, appended guidance) are not gated: they are written to runs/findings/tool-schema.json
 * for the findings document.
 *
 * These runs use the §8 canary config (model `arena-canary-model-7`, temperature 0.7,
 * max_tool_iterations 3), so shared-controls.test.ts judges the same runs.
 */
import { afterAll, describe, expect, it } from "vitest";
import { specsFor } from "../../contract/tools/registry.ts";
import { knownOf } from "../../orchestrator/probes/known.ts";
import { schemaFindings, schemaViolations, type ArenaSchemaFinding } from "../../orchestrator/probes/judges/schema.ts";
import { CANARY, schemaArena } from "../../orchestrator/probes/setups.ts";
import { writeFindings } from "./findings-file.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

interface AdapterFindings {
  lib_version: string;
  arenas: Record<
    string,
    { available: boolean; reason?: string; gated_violations: string[]; known: boolean; finding: ArenaSchemaFinding | null }
  >;
}
const findings: Record<string, AdapterFindings> = {};

/** A synthetic request advertising `fns` (Chat Completions shape). */
const wire = (...fns: Record<string, unknown>[]) => syntheticRun([{ messages: [], tools: fns.map((f) => ({ type: "function", function: f })) }]);
const canonical = (name: string) => JSON.parse(JSON.stringify(specsFor([name])[0]!.function)) as Record<string, any>;

afterAll(() => {
  if (Object.keys(findings).length === 0) return;
  writeFindings("tool-schema", "tool-schema fidelity (probes.md §7)", {
    config: { ...CANARY, max_tool_iterations: 3 },
    note: "Gated: parameters present, types, descriptions, canonical description contained. Recorded only: strict, title, additionalProperties, widened required, added guidance.",
    adapters: findings,
  });
});

describe("§7 the judge", () => {
  it("the check: reflowing, appending, folding an Args: block and framework decorations pass; narrowing fails", () => {
    const search = canonical("search");
    expect(schemaViolations(wire(search), ["search"])).toEqual([]);
    // An ADK-style shape: the description reflowed, guidance appended, parameter descriptions folded in.
    const folded = {
      name: "search",
      description: `Search a knowledge base of general\n  facts. Returns up to k text snippets.\n\nArgs:\n  query: What to look up.\n  k: How many snippets.\n\nNOTE: This is a long-running operation.`,
      parameters: { type: "object", title: "search", properties: { query: { type: "string", title: "Query" }, k: { type: "integer", title: "K" } }, required: ["query", "k"], additionalProperties: false },
      strict: true,
    };
    expect(schemaViolations(wire(folded), ["search"])).toEqual([]);
    const f = schemaFindings(wire(folded), "tool_use", ["search"])!.tools[0]!;
    expect(f.strict).toBe(true);
    expect(f.widenedRequired).toEqual(["k"]);
    expect(f.additionalProperties).toBe(false);
    expect(f.titles).toEqual(["parameters", "parameters.properties.query", "parameters.properties.k"]);
    expect(f.addedGuidance?.after).toMatch(/^Args: query: What to look up\. k: How many snippets\. NOTE:/);
    expect(f.parameterDescriptions).toEqual({ query: "folded", k: "folded" });
    // `k` inside "knowledge" is not a mention of the parameter `k`; "query" is nowhere.
    const bare = { ...search, parameters: { ...search.parameters, properties: { query: { type: "string" }, k: { type: "integer" } } } };
    expect(schemaViolations(wire(bare), ["search"])).toEqual([
      "search.query: not described (no parameter description, and the tool description does not mention it)",
    ]);
    // The same tool definition on every later request, or none of the arena's tools at all (a tool-less stage).
    const run = syntheticRun([{ tools: [{ type: "function", function: search }] }, { tools: [] }, { tools: [{ type: "function", function: bare }] }]);
    expect(schemaViolations(run, ["search"])).toEqual(["request 3/3: search is not advertised as in request 1"]);
  });

});

describeProbe("tool-schema", {
  fixtures: ["drops-k", "bare-params", "retyped-k", "cut-pause-sentence", "baseline-drift"],
  observe: (subject, result) => {
    const run = result.runs[0]!;
    const arena = result.case.slice("schema:".length);
    const entry = (findings[subject.name] ??= { lib_version: run.record.lib_version, arenas: {} });
    entry.arenas[arena] = {
      available: run.record.available,
      ...(run.record.reason ? { reason: run.record.reason } : {}),
      gated_violations: [...result.violations],
      known: knownOf("tool-schema", subject.name, result.case).length > 0,
      finding: schemaFindings(run, arena, schemaArena(arena).tools),
    };
  },
});
