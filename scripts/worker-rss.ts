/**
 * Writes orchestrator/config/worker-rss.json, the memory each adapter's worker is budgeted at, from
 * the adapter cost table's measured peaks ("peak worker RSS in bench" in docs/findings.md, written
 * by scripts/adapter-costs.ts). Run it after the cost table is re-measured:
 *
 *     node scripts/worker-rss.ts           # rewrite the table
 *     node scripts/worker-rss.ts --check   # exit 1 if it differs from what the cost table gives
 *
 * The cost table's bench runs each item once; a worker that serves more items grows (V8 lets its
 * heap grow while the machine has room: docs/performance.md, "Worker memory", saw up to 1.6× at
 * `--repeat 5`), so each peak is multiplied by MARGIN and rounded up to a step, and never budgeted
 * below FLOOR_MIB (the host alone, inside bubblewrap).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const MARGIN = 1.75;
export const FLOOR_MIB = 96;
const STEP_MIB = 16;
const COLUMN = "peak worker RSS in bench (MiB)";

export const FINDINGS = fileURLToPath(new URL("../docs/findings.md", import.meta.url));
export const TABLE = fileURLToPath(new URL("../orchestrator/config/worker-rss.json", import.meta.url));

export interface WorkerRssTable {
  readonly generated_by: string;
  readonly measured: string;
  readonly margin: number;
  readonly floor_mib: number;
  /** Budgeted MiB per adapter name. */
  readonly adapters: Readonly<Record<string, { readonly measured_mib: number; readonly budget_mib: number }>>;
}

/** The table the cost table's text gives; throws naming the line when the table cannot be read. */
export function workerRssFrom(findings: string): WorkerRssTable {
  const lines = findings.split("\n");
  const start = lines.findIndex((l) => l.includes("<!-- adapter-costs:start -->"));
  const end = lines.findIndex((l) => l.includes("<!-- adapter-costs:end -->"));
  if (start === -1 || end < start) throw new Error(`${FINDINGS}: no adapter-costs section`);
  const headerAt = lines.findIndex((l, i) => i > start && i < end && l.startsWith("| adapter |"));
  if (headerAt === -1) throw new Error(`${FINDINGS}:${start + 1}: the adapter-costs section has no table`);
  const cells = (line: string) => line.split("|").slice(1, -1).map((c) => c.trim());
  const column = cells(lines[headerAt]!).indexOf(COLUMN);
  if (column === -1) throw new Error(`${FINDINGS}:${headerAt + 1}: no column "${COLUMN}"`);
  const measuredLine = lines.slice(start, end).find((l) => l.startsWith("Measured "));
  const adapters: Record<string, { measured_mib: number; budget_mib: number }> = {};
  for (let i = headerAt + 2; i < end && lines[i]!.startsWith("|"); i++) {
    const row = cells(lines[i]!);
    const name = /^`([^`]+)`$/.exec(row[0] ?? "")?.[1];
    if (name === undefined) continue; // the total row
    const measured = Number(row[column]);
    if (!Number.isFinite(measured) || measured <= 0) throw new Error(`${FINDINGS}:${i + 1}: ${name}: "${row[column]}" is not a peak in MiB`);
    adapters[name] = { measured_mib: measured, budget_mib: Math.max(FLOOR_MIB, Math.ceil((measured * MARGIN) / STEP_MIB) * STEP_MIB) };
  }
  if (Object.keys(adapters).length === 0) throw new Error(`${FINDINGS}:${headerAt + 1}: the table has no adapter rows`);
  return {
    generated_by: "node scripts/worker-rss.ts (from docs/findings.md, the adapter cost table of scripts/adapter-costs.ts)",
    measured: measuredLine?.replace(/^Measured /, "").split(";")[0]?.trim() ?? "unknown",
    margin: MARGIN,
    floor_mib: FLOOR_MIB,
    adapters,
  };
}

export function renderTable(table: WorkerRssTable): string {
  return `${JSON.stringify(table, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderTable(workerRssFrom(readFileSync(FINDINGS, "utf8")));
  if (process.argv.includes("--check")) {
    const same = readFileSync(TABLE, "utf8") === text;
    process.stdout.write(same ? "worker-rss.json matches the cost table\n" : "worker-rss.json differs from the cost table: run node scripts/worker-rss.ts\n");
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(TABLE, text);
    process.stdout.write(`wrote ${TABLE}\n`);
  }
}
