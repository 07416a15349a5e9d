/**
 * The house rules of docs/architecture.md, checked on the tree as it is, so a change that breaks
 * one fails here rather than in a reviewer's reading: imports run one way between the layers, the
 * only import circle is the calculator's grammar inside the Python-semantics package, files stay
 * small, and every adapter folder has the same files. Each checker is first shown to catch a
 * breach on a small made-up tree, so a pass on the real tree means something.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { circles, forbiddenImports, importGraph, longFiles, missingShapeFiles, relativeImports, sourceFiles, type ImportRule } from "../support/import-graph.ts";
import { REPO_ROOT } from "../support/reference.ts";

const PACKAGE = "packages/py-semantics/";
const TREE = ["contract", "orchestrator", "workers", "fixtures", "scripts", "tests", "packages"];
const MAX_LINES = 300;
const ADAPTER_SHAPE = ["index.ts", "model.ts", "tools.ts", "runner.ts", "README.md"];
/** A Python adapter's folder: the same roles, as Python modules (its index.py is the module the catalogue names). */
const PY_ADAPTER_SHAPE = ["index.py", "model.py", "tools.py", "runner.py", "README.md"];
const shapeOf = (folder: string): readonly string[] => (existsSync(path.join(folder, "index.py")) ? PY_ADAPTER_SHAPE : ADAPTER_SHAPE);

const RULES: readonly ImportRule[] = [
  { from: "contract/", not: ["orchestrator/", "workers/", "fixtures/", "scripts/", "tests/"], why: "neutral ground imports neither side" },
  {
    from: "orchestrator/",
    not: ["workers/", "fixtures/", "scripts/", "tests/"],
    // The hostile catalogue is names and module paths, as contract/catalogue.ts is: `arena probe --fixtures` reads it.
    allow: ["fixtures/catalogue.ts"],
    why: "the orchestrator never imports an adapter or the worker side",
  },
  { from: "workers/", not: ["orchestrator/", "fixtures/", "scripts/", "tests/"], why: "a worker runs only worker code and the contract" },
  { from: PACKAGE, not: ["contract/", "orchestrator/", "workers/", "fixtures/", "scripts/", "tests/"], why: "the package stands alone" },
  { from: "contract/", not: [PACKAGE], why: "the package is imported by its name, not by path" },
  { from: "orchestrator/", not: [PACKAGE], why: "the package is imported by its name, not by path" },
  { from: "workers/", not: [PACKAGE], why: "the package is imported by its name, not by path" },
];

const files = sourceFiles(REPO_ROOT, TREE);
const graph = importGraph(REPO_ROOT, files);

describe("the checkers catch a breach", () => {
  const made = new Map<string, string[]>([
    ["orchestrator/a.ts", ["orchestrator/b.ts"]],
    ["orchestrator/b.ts", ["orchestrator/c.ts", "workers/adapters/x/index.ts"]],
    ["orchestrator/c.ts", ["orchestrator/a.ts"]],
    ["orchestrator/self.ts", ["orchestrator/self.ts"]],
    ["workers/adapters/x/index.ts", []],
  ]);

  it("finds a three-file circle and a file importing itself", () => {
    expect(circles(made)).toEqual([["orchestrator/a.ts", "orchestrator/b.ts", "orchestrator/c.ts"], ["orchestrator/self.ts"]]);
  });

  it("finds the orchestrator importing an adapter", () => {
    expect(forbiddenImports(made, RULES)).toEqual([
      "orchestrator/b.ts → workers/adapters/x/index.ts (the orchestrator never imports an adapter or the worker side)",
    ]);
  });

  it("reads type-only and dynamic imports, and not an import written in a comment", () => {
    const text = ['import type { A } from "../a.ts";', "// import { B } from './b.ts';", 'const c = await import("./c.ts");'].join("\n");
    expect(relativeImports("orchestrator/run/x.ts", text)).toEqual(["orchestrator/a.ts", "orchestrator/run/c.ts"]);
  });

  it("finds a long file and an adapter folder missing a file of the shape", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "arena-house-"));
    try {
      mkdirSync(path.join(dir, "whole"));
      mkdirSync(path.join(dir, "partial"));
      for (const f of ADAPTER_SHAPE) writeFileSync(path.join(dir, "whole", f), "");
      writeFileSync(path.join(dir, "partial", "index.ts"), "x\n".repeat(MAX_LINES + 1));
      writeFileSync(path.join(dir, "partial", "README.md"), "x\n".repeat(MAX_LINES));
      expect(longFiles(dir, ["partial/index.ts", "partial/README.md"], MAX_LINES)).toEqual([`partial/index.ts: ${MAX_LINES + 1} lines`]);
      expect(missingShapeFiles(dir, ADAPTER_SHAPE)).toEqual(["partial/model.ts", "partial/tools.ts", "partial/runner.ts"]);
      mkdirSync(path.join(dir, "python"));
      for (const f of ["index.py", "runner.py", "README.md"]) writeFileSync(path.join(dir, "python", f), "");
      expect(missingShapeFiles(dir, shapeOf)).toEqual(["partial/model.ts", "partial/tools.ts", "partial/runner.ts", "python/model.py", "python/tools.py"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the tree keeps the house rules", () => {
  it("reads the whole tree", () => {
    expect(files.length).toBeGreaterThan(400);
    expect(files).toContain("orchestrator/run/index.ts");
  });

  it("has no import circle outside the Python-semantics package", () => {
    const outside = circles(graph).filter((c) => !c.every((f) => f.startsWith(PACKAGE)));
    expect(outside).toEqual([]);
  });

  it("imports run one way between the layers", () => {
    expect(forbiddenImports(graph, RULES)).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines outside the Python-semantics package`, () => {
    expect(longFiles(REPO_ROOT, files.filter((f) => !f.startsWith(PACKAGE)), MAX_LINES)).toEqual([]);
  });

  it("gives every adapter folder the same files", () => {
    const root = path.join(REPO_ROOT, "workers/adapters");
    expect(readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory()).length).toBeGreaterThanOrEqual(7);
    expect(missingShapeFiles(root, shapeOf)).toEqual([]);
  });
});
