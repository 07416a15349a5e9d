/**
 * Which npm packages an adapter's source asks for: the bare import specifiers of its `.ts` files
 * (static, `export … from`, side-effect and dynamic `import("…")`, type-only included), read with
 * TypeScript's own pre-processor so that comments and string literals are never mistaken for
 * imports. Pure apart from `adapterSourceFiles`, which reads the folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** Packages the harness itself needs: an adapter importing them adds nothing. */
export const HARNESS_PACKAGES: readonly string[] = ["zod", "execa", "p-queue", "piscina", "smol-toml"];

/** Every module specifier the source imports, in source order (relative ones included). */
export function importSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`; undefined for relative, absolute or `node:` specifiers. */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.includes(":")) return undefined;
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) return parts.length >= 2 && parts[1] ? `${parts[0]}/${parts[1]}` : undefined;
  return parts[0] || undefined;
}

/** Whether a package is the harness's (or the project's own workspace), not the adapter's. */
export function isHarnessPackage(name: string, harness: readonly string[] = HARNESS_PACKAGES): boolean {
  return name.startsWith("@agentic-arena/") || harness.includes(name);
}

/** The npm packages a set of sources imports, harness packages and `node:` builtins left out, sorted. */
export function adapterPackages(sources: readonly string[], harness: readonly string[] = HARNESS_PACKAGES): string[] {
  const names = new Set<string>();
  for (const source of sources) {
    for (const spec of importSpecifiers(source)) {
      const name = packageNameOf(spec);
      if (name !== undefined && !isHarnessPackage(name, harness)) names.add(name);
    }
  }
  return [...names].sort();
}

/**
 * The `.ts` files of an adapter: every file in its module's folder, plus whatever they reach by
 * relative imports inside `within` (workers/adapters/: a `-multi` variant in its own folder that
 * uses its parent's client reaches the parent's files). Absolute paths, sorted.
 */
export function adapterSourceFiles(moduleFile: string, within: string): string[] {
  const folder = path.dirname(moduleFile);
  const queue = readdirSync(folder)
    .filter((n) => n.endsWith(".ts"))
    .map((n) => path.join(folder, n));
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    for (const spec of importSpecifiers(readFileSync(file, "utf8"))) {
      if (!spec.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), spec);
      if (target.startsWith(within + path.sep) && target.endsWith(".ts")) queue.push(target);
    }
  }
  return [...seen].sort();
}
