/**
 * §2 Only declared tools are advertised: in every request, the advertised names minus control
 * tools, handoffs and the adapter's declared delegates equal `namesFor(arena.tools)` exactly. The
 * delegate declaration is checked from both ends: it may not cover a tool any arena declares, and
 * every declared delegate must actually be advertised on the adapter's own arena.
 */
import { describe, expect, it } from "vitest";
import { declaredToolsViolations } from "../../orchestrator/probes/judges/contract.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

const tool = (name: string) => ({ type: "function", function: { name, description: "", parameters: { type: "object", properties: {} } } });
const body = (...names: string[]) => ({ model: "m", messages: [], tools: names.map(tool) });

describe("§2 the judge", () => {
  it("the check: control tools, handoffs and declared delegates are exempt; extras, duplicates and omissions are not", () => {
    const ok = syntheticRun([body("search", "final_answer", "transfer_to_writer", "writer"), body("transfer_to_editor")]);
    expect(declaredToolsViolations(ok, ["search"], ["writer"])).toEqual([]);
    expect(declaredToolsViolations(syntheticRun([body("search", "writer")]), ["search"], [])[0]).toMatch(/undeclared \["writer"\]/);
    expect(declaredToolsViolations(syntheticRun([body("search", "search")]), ["search"], [])[0]).toMatch(/duplicated \["search"\]/);
    expect(declaredToolsViolations(syntheticRun([body("calculator", "search")]), ["search", "calculator"], [])[0]).toMatch(/advertises/);
    expect(declaredToolsViolations(syntheticRun([body()]), ["search"], [])).toEqual(['no request advertised the arena\'s tools ["search"]']);
    // A pattern is not an exemption: only the fixed list, the one prefix, and declared names.
    expect(declaredToolsViolations(syntheticRun([body("search", "final_answer_v2")]), ["search"], [])).not.toEqual([]);
  });

});

describeProbe("declared-tools", { fixtures: ["extra-tool", "smuggled-delegate", "stale-delegate"] });
