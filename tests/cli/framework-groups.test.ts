import { describe, expect, it } from "vitest";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { resolveAdapters } from "../../orchestrator/cli/run-flow.ts";

const names = (raw: string[]) => resolveAdapters(raw).map((a) => a.name);

describe("--framework groups", () => {
  it("all-ts and all-py split the catalogue by host runtime, in catalogue order, and together make all", () => {
    const ts = names(["all-ts"]);
    const py = names(["all-py"]);
    expect(ts).toEqual(ADAPTER_CATALOG.filter((e) => !e.module.endsWith(".py")).map((e) => e.name));
    expect(py).toEqual(ADAPTER_CATALOG.filter((e) => e.module.endsWith(".py")).map((e) => e.name));
    expect(ts).toContain("vanilla");
    expect(ts).not.toContain("vanilla-py");
    expect(py).toContain("langgraph-py-multi");
    expect([...ts, ...py].sort()).toEqual(names(["all"]).sort());
  });

  it("a variant in a group keeps to its arenas, as under all; named, it runs anywhere", () => {
    const grouped = resolveAdapters(["all-ts"]).find((a) => a.name === "mastra-multi");
    expect(grouped).toMatchObject({ variant: true, onlyArenas: ["multi_agent"] });
    const named = resolveAdapters(["mastra-multi"])[0];
    expect(named).toMatchObject({ name: "mastra-multi", variant: true });
    expect(named?.onlyArenas).toBeUndefined();
    expect(resolveAdapters(["all-ts"]).find((a) => a.name === "mastra")?.onlyArenas).toBeUndefined();
  });

  it("a group beside names adds each adapter once, the first mention deciding its scope", () => {
    expect(names(["vanilla-py", "all-ts", "vanilla"])).toEqual(["vanilla-py", ...names(["all-ts"])]);
    const first = resolveAdapters(["ai_sdk-multi", "all-ts"]).find((a) => a.name === "ai_sdk-multi");
    expect(first?.onlyArenas).toBeUndefined();
  });
});
