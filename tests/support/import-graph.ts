/**
 * The repository's import graph, read the way TypeScript reads it (comments and strings are not
 * imports; `import type` and `import("…")` are), for the house rules in tests/house: which files
 * import which, the circles in that graph, the edges a layer may not have; and the two other
 * rules read off the tree, file length and the adapter folders' shape.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const SOURCE_EXTENSIONS = [".ts", ".mjs", ".py"] as const;
const SKIPPED_DIRS = new Set(["node_modules", ".git", "runs", "checkpoints", "results"]);

/** Repository-relative paths (forward slashes) of every source file below `dirs`. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) walk(child);
      } else if (SOURCE_EXTENSIONS.some((x) => e.name.endsWith(x))) {
        out.push(child);
      }
    }
  };
  for (const d of dirs) walk(d);
  return out.sort();
}

/** Where a file's relative imports land, as repository-relative paths (bare package names are left out). */
export function relativeImports(file: string, text: string): string[] {
  if (!file.endsWith(".ts") && !file.endsWith(".mjs")) return [];
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith("./") || spec.startsWith("../"))
    .map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
}

export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export function importGraph(root: string, files: readonly string[]): ImportGraph {
  return new Map(files.map((f) => [f, relativeImports(f, readFileSync(path.join(root, f), "utf8"))]));
}

/** Strongly connected components of more than one file, or of one file importing itself (Tarjan). */
export function circles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A layer (`from` prefix) that may not import below any of `not` (prefixes), with the reason shown on failure. */
export interface ImportRule {
  readonly from: string;
  readonly not: readonly string[];
  /** Files below `not` that may be imported all the same (data, not code of that side). */
  readonly allow?: readonly string[];
  readonly why: string;
}

/** Every edge that breaks a rule, as `a → b (why)`. */
export function forbiddenImports(graph: ImportGraph, rules: readonly ImportRule[]): string[] {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    for (const rule of rules) {
      if (!from.startsWith(rule.from)) continue;
      for (const to of targets) if (rule.not.some((p) => to.startsWith(p)) && !rule.allow?.includes(to)) out.push(`${from} → ${to} (${rule.why})`);
    }
  }
  return out;
}

/** Files of more than `max` lines, as `path: N lines`. */
export function longFiles(root: string, files: readonly string[], max: number): string[] {
  return files
    .map((f) => ({ f, lines: readFileSync(path.join(root, f), "utf8").split("\n").length - 1 }))
    .filter(({ lines }) => lines > max)
    .map(({ f, lines }) => `${f}: ${lines} lines`);
}

/** `folder/file` for every file of `shape` missing from a folder directly below `dir`. */
/** The shape files a folder lacks; `shape` may depend on the folder (a Python adapter has `.py` modules). */
export function missingShapeFiles(dir: string, shape: readonly string[] | ((folder: string) => readonly string[])): string[] {
  const folders = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const of = typeof shape === "function" ? shape : () => shape;
  return folders.flatMap((d) => of(path.join(dir, d)).filter((f) => !existsSync(path.join(dir, d, f))).map((f) => `${d}/${f}`));
}
