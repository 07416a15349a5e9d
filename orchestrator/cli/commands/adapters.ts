/**
 * `arena adapters`: every catalogue adapter with its framework's version, whether it is installed,
 * how it pauses and which arenas it runs. Installed = each package the catalogue names resolves
 * from the adapter's own folder (as the worker would load it) and its package.json reads; the
 * adapter module itself is never imported here (the orchestrator loads no adapter code). A Python
 * adapter's packages are PyPI distributions, asked of the interpreter its workers run on
 * (supervisor/python-packages.ts); where they are missing the row names the command that installs them.
 */
import { readFileSync } from "node:fs";
import { findPackageJSON } from "node:module";
import { pathToFileURL } from "node:url";
import { ADAPTER_CATALOG, type CatalogEntry } from "../../../contract/catalogue.ts";
import { declaredLines, type DeclaredLine } from "../../../contract/declarations.ts";
import { declarationFor } from "../../run/declarations.ts";
import { pythonInventory, type PythonInventory } from "../../supervisor/python-packages.ts";
import type { CommandContext } from "../command.ts";
import { renderTable } from "../table.ts";

/** The installed version of `pkg` as `entry`'s module would resolve it; null when it does not. */
export function packageVersion(entry: CatalogEntry, pkg: string): string | null {
  try {
    // findPackageJSON, not resolve(`${pkg}/package.json`): a package's `exports` may not list that file.
    const file = findPackageJSON(pkg, pathToFileURL(entry.module));
    if (file === undefined) return null;
    const version = (JSON.parse(readFileSync(file, "utf8")) as { version?: unknown }).version;
    return typeof version === "string" ? version : null;
  } catch {
    return null;
  }
}

export interface AdapterRow {
  readonly name: string;
  readonly version: string;
  readonly installed: string;
  readonly pause: string;
  readonly arenas: string;
}

/** The command that installs the Python adapters' packages (scripts/python-env/setup.ts). */
export const PYTHON_SETUP_COMMAND = "pnpm setup:python";

/** `python` is the Python workers' inventory, asked once for every row (only Python rows read it). */
export function adapterRow(entry: CatalogEntry, python?: PythonInventory): AdapterRow {
  const isPython = entry.runtime === "python";
  const inventory = isPython ? (python ?? pythonInventory(entry.packages)) : undefined;
  const versions = entry.packages.map((p) => ({ p, v: inventory ? (inventory.versions.get(p) ?? null) : packageVersion(entry, p) }));
  const missing = versions.filter((x) => x.v === null).map((x) => x.p);
  const [main, ...rest] = versions;
  const bare = isPython ? "Python standard library (no framework package)" : "Node standard library (no framework package)";
  const listed =
    main === undefined ? bare : `${main.p} ${main.v ?? "-"}${rest.length ? ` (${rest.map((x) => `${x.p} ${x.v ?? "-"}`).join(", ")})` : ""}`;
  const version = inventory ? `${listed}; Python ${inventory.python ?? "-"}` : listed;
  let installed = missing.length === 0 ? "yes" : `no (missing ${missing.join(", ")})`;
  if (inventory?.python === null) installed = `no (no Python for the workers: run \`${PYTHON_SETUP_COMMAND}\`)`;
  else if (isPython && missing.length > 0) installed = `no (missing ${missing.join(", ")}: run \`${PYTHON_SETUP_COMMAND}\`)`;
  return {
    name: entry.name,
    version,
    installed,
    pause: entry.pause,
    arenas: entry.arenas ? `${entry.arenas.join(",")} (any arena when named)` : "all",
  };
}

export function run({ io }: CommandContext): number {
  const rows = [["adapter", "installed", "arenas", "pause / durable", "version"]];
  const pythonPackages = [...new Set(ADAPTER_CATALOG.filter((e) => e.runtime === "python").flatMap((e) => e.packages))];
  const python = ADAPTER_CATALOG.some((e) => e.runtime === "python") ? pythonInventory(pythonPackages) : undefined;
  for (const entry of ADAPTER_CATALOG) {
    const r = adapterRow(entry, python);
    rows.push([r.name, r.installed, r.arenas, r.pause, r.version]);
  }
  io.stdout(renderTable(rows));
  io.stdout(`\nWhat each adapter declares about its wire (declarations.json in its folder; the witness holds it to these forms, and to the baseline's where it declares nothing):\n\n`);
  io.stdout(renderTable(declarationRows()));
  return 0;
}

/** Every catalogued adapter's declared departures from the baseline's wire, a row each. */
export function declarationRows(): string[][] {
  const rows = [["adapter", "declares", "what", "why"]];
  for (const entry of ADAPTER_CATALOG) {
    let lines: DeclaredLine[];
    try {
      lines = declaredLines(declarationFor(entry.name, entry.module));
    } catch (err) {
      rows.push([entry.name, "error", (err as Error).message, ""]);
      continue;
    }
    if (lines.length === 0) rows.push([entry.name, "nothing", "the baseline's wire", ""]);
    for (const l of lines) rows.push([entry.name, l.kind, l.what, l.why]);
  }
  return rows;
}
