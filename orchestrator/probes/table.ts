/**
 * What `arena probe` prints: a rule × adapter table, then one line per case that is not a plain
 * pass (its violations, the known finding and why, or why it was not judged); and for the hostile
 * catalogue, one row per fixture with the probe named for it and its verdict. Deterministic:
 * registry order, catalogue order, no timings.
 */
import { clip } from "../report/clip.ts";
import { cellStatus, type CaseResult, type HostileVerdict } from "./execute.ts";
import { knownOf } from "./known.ts";
import type { Subject } from "./setups.ts";
import type { Probe } from "./types.ts";

export interface MatrixRow {
  readonly probe: Probe;
  /** Per subject (in subject order), every case's result. */
  readonly cells: readonly (readonly CaseResult[])[];
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ").trimEnd()).join("\n");
}

/** How much of one finding a table line shows (a problem list line shows more). */
const NOTE_CHARS = 240;
const PROBLEM_CHARS = 400;
const label = (p: Probe) => `${p.section} ${p.id}`;

export function renderMatrix(rows: readonly MatrixRow[], subjects: readonly Subject[]): { text: string; failed: boolean } {
  const head = ["rule", ...subjects.map((s) => s.name)];
  const body = rows.map((r) => [label(r.probe), ...r.cells.map((cases) => cellStatus(cases))]);
  const notes: string[] = [];
  rows.forEach((r) =>
    r.cells.forEach((cases, i) => {
      const subject = subjects[i]!;
      for (const c of cases) {
        const at = `${label(r.probe)} × ${subject.name} [${c.case}]`;
        if (c.status === "FAIL") {
          for (const v of c.unexpected) notes.push(`FAIL   ${at}: ${clip(v, NOTE_CHARS)}`);
          for (const s of c.stale) notes.push(`FAIL   ${at}: known finding no longer occurs: ${clip(s, NOTE_CHARS)}`);
        } else if (c.status === "known") {
          for (const k of knownOf(r.probe.id, subject.name, c.case)) notes.push(`known  ${at}: ${k.violation} — ${k.why}`);
        } else if (c.status === "n/a") {
          notes.push(`n/a    ${at}: ${clip(c.reason ?? "not judged", NOTE_CHARS)}`);
        }
      }
    }),
  );
  const failed = body.some((r) => r.includes("FAIL"));
  const failing = body.reduce((n, r) => n + r.filter((c) => c === "FAIL").length, 0);
  const lines = [
    table([head, ...body]),
    "",
    ...rows.map((r) => `${label(r.probe)}: ${r.probe.rule}`),
    ...(notes.length ? ["", ...notes] : []),
    "",
    failed
      ? `${failing} rule × adapter cell(s) FAIL: exit 1`
      : `every adapter passes every rule${notes.length ? " it was judged on (known findings and n/a above)" : ""}`,
  ];
  return { text: `${lines.join("\n")}\n`, failed };
}

function verdictText(v: HostileVerdict): string {
  if (v.control) return v.ok ? "passes (control)" : "CONTROL FAILED";
  return v.ok ? "caught" : "NOT CAUGHT";
}

export function renderFixtures(
  verdicts: readonly HostileVerdict[],
  probes: readonly Probe[],
  elsewhere: readonly { readonly name: string; readonly caughtBy: string }[],
): { text: string; failed: boolean } {
  const byId = new Map(probes.map((p) => [p.id, p]));
  const rows = [["fixture", "probe", "verdict"], ...verdicts.map((v) => [v.fixture, label(byId.get(v.probe)!), verdictText(v)])];
  const notes = verdicts
    .filter((v) => !v.ok)
    .flatMap((v) => [
      `${v.fixture}: not as designed for ${v.probe}:`,
      ...v.problems.map((p) => `  - ${clip(p, PROBLEM_CHARS)}`),
      ...(v.violations.length ? [`  the probe said: ${clip(v.violations.join(" | "), PROBLEM_CHARS)}`] : []),
    ]);
  const failed = verdicts.some((v) => !v.ok);
  const lines = [
    table(rows),
    ...(notes.length ? ["", ...notes] : []),
    ...(elsewhere.length
      ? ["", `${elsewhere.length} fixture(s) are proved by suites outside the registry:`, table(elsewhere.map((f) => [`  ${f.name}`, f.caughtBy]))]
      : []),
    "",
    failed
      ? `${verdicts.filter((v) => !v.ok).length} of ${verdicts.length} fixture(s) not caught as designed: exit 1`
      : `all ${verdicts.length} fixture(s) caught by the probe named for them (controls pass)`,
  ];
  return { text: `${lines.join("\n")}\n`, failed };
}
