/** The pure pieces behind compare, suggestions and `arena adapters`. */
import { describe, expect, it } from "vitest";
import { compareLane, compareRuns, rateText } from "../../orchestrator/history/compare.ts";
import { didYouMean, editDistance, nearest } from "../../orchestrator/cli/suggest.ts";
import { adapterRow, packageVersion } from "../../orchestrator/cli/commands/adapters.ts";
import { pythonInventory } from "../../orchestrator/supervisor/python-packages.ts";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import type { AdapterRecord, RunRecord } from "../../orchestrator/report/record.ts";

const lane = (passes: boolean[], available = true): AdapterRecord =>
  ({
    framework: "vanilla",
    available,
    lib_version: "x",
    variant: false,
    items: available ? passes.map((passed, i) => ({ item_id: `i${i}`, repeat: 0, passed })) : [],
  }) as unknown as AdapterRecord;

describe("compare rule", () => {
  it("any cell lost regresses at the default threshold 0; --threshold N allows N", () => {
    const a = lane([true, true, true, false]);
    const b = lane([true, false, true, true]);
    const d = compareLane("tool_use", "vanilla", a, b, { threshold: 0 });
    expect(d).toMatchObject({ lost: [{ item_id: "i1", repeat: 0 }], gained: [{ item_id: "i3", repeat: 0 }], regression: true, pValue: 1 });
    expect(compareLane("tool_use", "vanilla", a, b, { threshold: 1 }).regression).toBe(false);
    expect(compareLane("tool_use", "vanilla", b, b, { threshold: 0 }).regression).toBe(false);
  });

  it("--alpha requires McNemar p < alpha with more lost than gained", () => {
    const a = lane(Array(8).fill(true));
    const six = lane([false, false, false, false, false, false, true, true]); // b = 6, c = 0: p = 2/64
    expect(compareLane("t", "vanilla", a, six, { threshold: 0, alpha: 0.05 })).toMatchObject({ regression: true, pValue: 0.03125 });
    expect(compareLane("t", "vanilla", a, six, { threshold: 0, alpha: 0.01 }).regression).toBe(false);
    const one = lane([false, true, true, true, true, true, true, true]);
    expect(compareLane("t", "vanilla", a, one, { threshold: 0, alpha: 0.05 }).regression).toBe(false);
  });

  it("a lane available in A and not in B regresses; lanes on one side only do not", () => {
    expect(compareLane("t", "vanilla", lane([true]), lane([], false), { threshold: 5 }).regression).toBe(true);
    expect(compareLane("t", "vanilla", lane([], false), lane([true]), { threshold: 0 }).regression).toBe(false);
    const rec = (arena: string, adapterRecord: AdapterRecord) => ({ arena, frameworks: [adapterRecord] }) as unknown as RunRecord;
    const diffs = compareRuns([rec("x", lane([true]))], [rec("y", lane([false]))], { threshold: 0 });
    expect(diffs.map((d) => [d.arena, d.a !== undefined, d.b !== undefined, d.regression])).toEqual([
      ["x", true, false, false],
      ["y", false, true, false],
    ]);
  });

  it("rates carry their Wilson interval", () => {
    expect(rateText({ passed: 17, cells: 18, available: true })).toBe("17/18 94% [74–99]");
    expect(rateText({ passed: 0, cells: 0, available: false })).toBe("not available");
    expect(rateText(undefined)).toBe("-");
  });
});

describe("nearest-name suggestions", () => {
  it("edit distance, and only close names are offered", () => {
    expect(editDistance("framwork", "framework")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("rnus", "runs")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(nearest("vanila", ["vanilla", "vanilla-multi", "langgraph"])).toBe("vanilla");
    expect(nearest("nope", ["alpha", "beta"])).toBeUndefined();
    expect(nearest("x", ["y"])).toBe("y");
    expect(didYouMean("framwork", ["framework", "adapter"], (f) => `--${f}`)).toBe("; did you mean --framework?");
    expect(didYouMean("zzzzzz", ["framework"])).toBe("");
  });
});

describe("arena adapters rows", () => {
  it("installed = every package the catalogue names resolves from the adapter's folder", () => {
    const vanilla = ADAPTER_CATALOG.find((e) => e.name === "vanilla")!;
    expect(adapterRow(vanilla)).toMatchObject({ installed: "yes", version: "Node standard library (no framework package)", arenas: "all" });
    const ghost = { ...vanilla, name: "ghost", packages: ["@agentic-arena/no-such-framework"], arenas: ["multi_agent"] };
    expect(adapterRow(ghost)).toMatchObject({
      installed: "no (missing @agentic-arena/no-such-framework)",
      version: "@agentic-arena/no-such-framework -",
      arenas: "multi_agent (any arena when named)",
    });
    const sdk = ADAPTER_CATALOG.find((e) => e.name === "ai_sdk")!;
    expect(packageVersion(sdk, "ai")).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("a Python adapter's packages are distributions of the workers' interpreter; a missing one names the install command", () => {
    const py = { ...ADAPTER_CATALOG.find((e) => e.name === "vanilla")!, name: "ghost-py", runtime: "python" as const, packages: ["pip", "no-such-dist-arena"] };
    const inventory = { python: "3.11.7", versions: new Map([["pip", "24.0"], ["no-such-dist-arena", null]]) };
    expect(adapterRow(py, inventory)).toMatchObject({
      installed: "no (missing no-such-dist-arena: run `pnpm setup:python`)",
      version: "pip 24.0 (no-such-dist-arena -); Python 3.11.7",
    });
    expect(adapterRow({ ...py, packages: [] }, { python: null, versions: new Map() })).toMatchObject({
      installed: "no (no Python for the workers: run `pnpm setup:python`)",
      version: "Python standard library (no framework package); Python -",
    });
    // Asked of the real interpreter: the lock's pins are what the venv holds.
    const real = pythonInventory(["pydantic-ai-slim", "no-such-dist-arena"]);
    expect(real.python).toMatch(/^3\.\d+\.\d+$/);
    expect(real.versions.get("no-such-dist-arena")).toBeNull();
  });
});
