// The pure parts of scripts/adapter-costs.ts: the import scan, the dependency closure, and the
// size arithmetic in which shared packages count once.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { addedPackages, closure, graphFromPnpmList, groupSizes, type PnpmNode } from "../../scripts/costs/closure.ts";
import { baselineOf, extractSection, familyOf, replaceSection, END_MARKER, START_MARKER } from "../../scripts/costs/doc.ts";
import { adapterPackages, adapterSourceFiles, packageNameOf } from "../../scripts/costs/imports.ts";

describe("import scan", () => {
  it("keeps bare packages, by package name, and nothing from comments or strings", () => {
    const source = [
      `// import x from "in-a-line-comment";`,
      `/* import y from "in-a-block-comment"; */`,
      `import type { A } from "type-only";`,
      `import { b } from "@scope/pkg/sub/path";`,
      `export { c } from "re-exported";`,
      `import "side-effect";`,
      `import { readFileSync } from "node:fs";`,
      `import { z } from "zod";`,
      `import { fromJs } from "@agentic-arena/py-semantics";`,
      `import { local } from "./local.ts";`,
      `const s = "import q from 'in-a-string'";`,
      `const m = await import("dynamic");`,
      `const [n] = await Promise.all([import("@scope/pkg"), import("dynamic2/x")]);`,
    ].join("\n");
    expect(adapterPackages([source])).toEqual(["@scope/pkg", "dynamic", "dynamic2", "re-exported", "side-effect", "type-only"]);
  });

  it("names packages from specifiers", () => {
    expect(packageNameOf("@a/b/c/d")).toBe("@a/b");
    expect(packageNameOf("lodash/fp")).toBe("lodash");
    expect(packageNameOf("node:fs")).toBeUndefined();
    expect(packageNameOf("../x.ts")).toBeUndefined();
    expect(packageNameOf("@broken")).toBeUndefined();
  });

  it("reads the module's folder and what it reaches by relative import, only inside `within`", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "costs-test-"));
    try {
      const adapters = path.join(root, "adapters");
      mkdirSync(path.join(adapters, "parent"), { recursive: true });
      mkdirSync(path.join(adapters, "parent-multi"));
      writeFileSync(path.join(adapters, "parent", "client.ts"), `import x from "parent-sdk";`);
      writeFileSync(path.join(adapters, "parent", "unused.ts"), `import y from "not-reached";`);
      writeFileSync(path.join(adapters, "parent-multi", "index.ts"), `import { c } from "../parent/client.ts";\nimport { o } from "../../outside.ts";`);
      writeFileSync(path.join(root, "outside.ts"), `import z from "outside-pkg";`);
      const files = adapterSourceFiles(path.join(adapters, "parent-multi", "index.ts"), adapters);
      expect(files).toEqual([path.join(adapters, "parent-multi", "index.ts"), path.join(adapters, "parent", "client.ts")].sort());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("closure and sizes", () => {
  // X → C → D; Y → C (printed `deduped`, no children listed); X → Z; zod (harness) → Z.
  const tree: PnpmNode = {
    dependencies: {
      x: {
        path: "/nm/x",
        dependencies: { c: { path: "/nm/c", dependencies: { d: { path: "/nm/d" } } }, z: { path: "/nm/z" } },
      },
      y: { path: "/nm/y", dependencies: { c: { path: "/nm/c", deduped: true } } },
      zod: { path: "/nm/zod", dependencies: { z: { path: "/nm/z", deduped: true } } },
      opt: { path: "/nm/opt", optionalDependencies: { bin: { path: "/nm/bin-other-platform" } } },
    },
  };
  const graph = graphFromPnpmList(tree);

  it("follows a deduped node through the occurrence that lists its children", () => {
    expect([...closure(["/nm/y"], graph)].sort()).toEqual(["/nm/c", "/nm/d", "/nm/y"]);
    expect([...closure(["/nm/opt"], graph)].sort()).toEqual(["/nm/bin-other-platform", "/nm/opt"]);
  });

  it("leaves out the harness's closure and names what is not a dependency", () => {
    const added = addedPackages(["x", "nope"], ["zod"], graph);
    expect([...added.dirs].sort()).toEqual(["/nm/c", "/nm/d", "/nm/x"]);
    expect(added.missing).toEqual(["nope"]);
  });

  it("counts a shared directory in each group, once in the total, and an uninstalled one nowhere", () => {
    const groups = new Map([
      ["fx", addedPackages(["x", "opt"], ["zod"], graph).dirs],
      ["fy", addedPackages(["y"], ["zod"], graph).dirs],
      ["none", new Set<string>()],
    ]);
    const sizes = new Map([
      ["/nm/x", 1000],
      ["/nm/y", 200],
      ["/nm/c", 30],
      ["/nm/d", 4],
      ["/nm/opt", 5000],
    ]);
    const { perGroup, total } = groupSizes(groups, sizes);
    expect(perGroup.get("fx")).toEqual({ packages: 4, bytes: 6034, sharedPackages: 2, sharedBytes: 34 });
    expect(perGroup.get("fy")).toEqual({ packages: 3, bytes: 234, sharedPackages: 2, sharedBytes: 34 });
    expect(perGroup.get("none")).toEqual({ packages: 0, bytes: 0, sharedPackages: 0, sharedBytes: 0 });
    expect(total).toEqual({ packages: 5, bytes: 6234 });
  });
});

describe("families and the doc section", () => {
  it("puts a variant with its parent and compares it with the baseline's variant", () => {
    const fam = familyOf([{ name: "vanilla" }, { name: "vanilla-multi", arenas: ["m"] }, { name: "lang" }, { name: "langgraph" }, { name: "langgraph-multi", arenas: ["m"] }, { name: "orphan-multi", arenas: ["m"] }]);
    expect(Object.fromEntries(fam)).toEqual({ vanilla: "vanilla", "vanilla-multi": "vanilla", lang: "lang", langgraph: "langgraph", "langgraph-multi": "langgraph", "orphan-multi": "orphan-multi" });
    expect(baselineOf("langgraph-multi", "langgraph")).toBe("vanilla-multi");
    expect(baselineOf("langgraph", "langgraph")).toBe("vanilla");
  });

  it("replaces only the marked section, or appends one", () => {
    const doc = `# T\n\nabove\n\n${START_MARKER}\nold $& table\n${END_MARKER}\n\nbelow\n`;
    const section = `${START_MARKER}\nnew $1 table\n${END_MARKER}`;
    expect(replaceSection(doc, section)).toBe(`# T\n\nabove\n\n${section}\n\nbelow\n`);
    expect(extractSection(replaceSection(doc, section))).toBe(section);
    expect(replaceSection("# T\n\nbody\n\n", section)).toBe(`# T\n\nbody\n\n${section}\n`);
    expect(extractSection("no markers")).toBeUndefined();
  });
});
