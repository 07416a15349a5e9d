/**
 * Installed size per family (an adapter and its variants): the packages its source imports, their
 * closure in `pnpm list --json --depth Infinity --prod` minus the harness's, and `du -skl` of each
 * package directory (hard links counted in every directory: pnpm links files from its store, so
 * a plain `du` over several directories would give a shared file to whichever came first).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { addedPackages, closure, graphFromPnpmList, groupSizes, type GroupSize, type PnpmNode } from "./closure.ts";
import { adapterPackages, adapterSourceFiles, HARNESS_PACKAGES } from "./imports.ts";

export interface InstalledSizes {
  readonly perFamily: ReadonlyMap<string, GroupSize>;
  readonly total: { readonly packages: number; readonly bytes: number };
  /** The harness's own closure, left out of every family. */
  readonly harness: { readonly packages: number; readonly bytes: number };
  /** Packages a family imports that are not dependencies of the project. */
  readonly missing: readonly string[];
}

/** Disk usage of each existing directory, in bytes. */
function duBytes(dirs: Iterable<string>): Map<string, number> {
  const existing = [...new Set(dirs)].filter((d) => existsSync(d));
  const out = new Map<string, number>();
  for (let i = 0; i < existing.length; i += 200) {
    const text = execFileSync("du", ["-skl", "--", ...existing.slice(i, i + 200)], { encoding: "utf8" });
    for (const line of text.trim().split("\n")) {
      const tab = line.indexOf("\t");
      out.set(line.slice(tab + 1), Number(line.slice(0, tab)) * 1024);
    }
  }
  return out;
}

export function installedSizes(
  root: string,
  entries: readonly { readonly name: string; readonly module: string }[],
  families: ReadonlyMap<string, string>,
): InstalledSizes {
  const list = execFileSync("pnpm", ["list", "--json", "--depth", "Infinity", "--prod"], { cwd: root, encoding: "utf8", maxBuffer: 1 << 28 });
  const graph = graphFromPnpmList((JSON.parse(list) as PnpmNode[])[0]!);
  const harnessNames = [...HARNESS_PACKAGES, ...[...graph.topLevel.keys()].filter((n) => n.startsWith("@agentic-arena/"))];
  const familyNames = new Map<string, Set<string>>();
  for (const e of entries) {
    const family = families.get(e.name) ?? e.name;
    const sources = adapterSourceFiles(e.module, path.join(root, "workers", "adapters")).map((f) => readFileSync(f, "utf8"));
    familyNames.set(family, new Set([...(familyNames.get(family) ?? []), ...adapterPackages(sources)]));
  }
  const missing: string[] = [];
  const groups = new Map<string, Set<string>>();
  for (const [family, names] of familyNames) {
    const added = addedPackages([...names], harnessNames, graph);
    groups.set(family, added.dirs);
    missing.push(...added.missing.map((m) => `${m} (imported by \`${family}\`)`));
  }
  const harnessDirs = closure(harnessNames.flatMap((n) => graph.topLevel.get(n) ?? []), graph);
  const sizes = duBytes([...[...groups.values()].flatMap((g) => [...g]), ...harnessDirs]);
  const { perGroup, total } = groupSizes(groups, sizes);
  const installedHarness = [...harnessDirs].filter((d) => sizes.has(d));
  const harness = { packages: installedHarness.length, bytes: installedHarness.reduce((a, d) => a + sizes.get(d)!, 0) };
  return { perFamily: perGroup, total, harness, missing };
}
