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
import { specsFor } from "../../workers/tools/registry.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { baselinePinViolations, schemaFindings, schemaViolations, type ArenaSchemaFinding } from "./checks/schema.ts";
import { probeAdapters } from "./support.ts";
import { writeFindings } from "./findings-file.ts";
import {
  fixtureEntry,
  requireBuilt,
  schemaArena,
  schemaArenasFor,
  setupOptions,
  setupRun,
  syntheticRun,
  wireRun,
  CANARY,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §7 findings (adapter → `schema:<arena>` → expected violations, each with why). */
const KNOWN: KnownFindings = {};


interface AdapterFindings {
  lib_version: string;
  arenas: Record<
    string,
    { available: boolean; reason?: string; gated_violations: string[]; known: boolean; finding: ArenaSchemaFinding | null }
  >;
}
const findings: Record<string, AdapterFindings> = {};

const toolsOf = (arena: string) => schemaArena(arena).tools;

/** A synthetic request advertising `fns` (Chat Completions shape). */
const wire = (...fns: Record<string, unknown>[]) => syntheticRun([{ messages: [], tools: fns.map((f) => ({ type: "function", function: f })) }]);
const canonical = (name: string) => JSON.parse(JSON.stringify(specsFor([name])[0]!.function)) as Record<string, any>;

describe("§7 tool-schema fidelity", () => {
  afterAll(() => {
    if (Object.keys(findings).length === 0) return;
    writeFindings("tool-schema", "tool-schema fidelity (probes.md §7)", {
      config: { ...CANARY, max_tool_iterations: 3 },
      note: "Gated: parameters present, types, descriptions, canonical description contained. Recorded only: strict, title, additionalProperties, widened required, added guidance.",
      adapters: findings,
    });
  });

  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

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

  describe.concurrent("every adapter", () => {
    for (const adapter of probeAdapters()) {
      for (const arena of schemaArenasFor(adapter)) {
        it(`${adapter.name} on ${arena}: every tool reaches the model as declared${adapter.name === "vanilla" ? " (and the canonical spec verbatim)" : ""}`, async (ctx) => {
          const run = await setupRun(`schema:${arena}`, adapter);
          const tools = toolsOf(arena);
          const entry = (findings[adapter.name] ??= { lib_version: run.framework.lib_version, arenas: {} });
          const violations = run.framework.available
            ? [...schemaViolations(run, tools), ...(adapter.name === "vanilla" ? baselinePinViolations(run, tools) : [])]
            : [];
          const known = knownFor(KNOWN, adapter.name, `schema:${arena}`);
          entry.arenas[arena] = {
            available: run.framework.available,
            ...(run.framework.reason ? { reason: run.framework.reason } : {}),
            gated_violations: violations,
            known: known.length > 0,
            finding: schemaFindings(run, arena, tools),
          };
          if (!requireBuilt(ctx, run)) return;
          const { unexpected, stale } = judge(violations, known);
          expect(unexpected).toEqual([]);
          expect(stale).toEqual([]);
        }, MATRIX_TIMEOUT_MS);
      }
    }
  });

  describe.concurrent("hostile fixtures are caught", () => {
    const run = (name: Parameters<typeof fixtureEntry>[0], arena: string) =>
      wireRun({ adapter: fixtureEntry(name), ...setupOptions(`schema:${arena}`) });

    it("drops-k fails: k is missing", async () => {
      const v = schemaViolations(await run("drops-k", "tool_use"), toolsOf("tool_use"));
      expect(v).toEqual(["search.k: parameter missing from the wire schema"]);
    }, FIXTURE_TIMEOUT_MS);

    it("bare-params fails: undescribed parameters (k survives only because the description mentions it)", async () => {
      const v = schemaViolations(await run("bare-params", "tool_use"), toolsOf("tool_use"));
      expect(v).toEqual([
        "search.query: not described (no parameter description, and the tool description does not mention it)",
        "calculator.expr: not described (no parameter description, and the tool description does not mention it)",
      ]);
    }, FIXTURE_TIMEOUT_MS);

    it("retyped-k fails: k is a number, not an integer", async () => {
      const v = schemaViolations(await run("retyped-k", "tool_use"), toolsOf("tool_use"));
      expect(v).toEqual(['search.k: type "number" on the wire, canonical "integer"']);
    }, FIXTURE_TIMEOUT_MS);

    it("cut-pause-sentence fails on human_in_the_loop: the pause instruction is gone", async () => {
      const v = schemaViolations(await run("cut-pause-sentence", "human_in_the_loop"), toolsOf("human_in_the_loop"));
      expect(v).toHaveLength(1);
      expect(v[0]).toMatch(/^request_approval: the canonical description does not reach the model intact — missing .*"Call this and stop; you will be told the decision\."/);
    }, FIXTURE_TIMEOUT_MS);

    it("baseline-drift passes the fidelity gates but fails the baseline pin", async () => {
      const r = await run("baseline-drift", "tool_use");
      expect(schemaViolations(r, toolsOf("tool_use"))).toEqual([]);
      const v = baselinePinViolations(r, toolsOf("tool_use"));
      expect(v.length).toBeGreaterThan(0);
      expect(v.every((x) => /: (search|calculator)\.parameters differs from the canonical spec: .*"title"/.test(x)), v.join("\n")).toBe(true);
    }, FIXTURE_TIMEOUT_MS);
  });
});
