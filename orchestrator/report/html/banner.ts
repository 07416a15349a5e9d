/**
 * What the figures on the page mean, said before any figure: a mock run checks wiring and ranks
 * nothing about model quality; cells the provider failed are left out of every figure; a run
 * that was interrupted reports only what it finished. Each notice is data, so tests read it
 * without a browser.
 */
import { causesText } from "../not-served.ts";
import type { Notice } from "./board-types.ts";
import type { ReportData } from "./types.ts";

export const MOCK_NOTICE =
  "Mock mode — a wiring check, not a leaderboard of model quality: the model's turns are scripted and identical for every framework. Only the resilience table and the prompt-size comparisons (prompt tokens, overhead vs the baseline) are meaningful; every other figure — pass rates, completion tokens, LLM calls, latency, cost — shows that the wiring works, not how good a framework is.";

/** Each run named with its own mode (`R1 mock · R2 live`), so no one label sits over every row. */
export function mixedNotice(runs: NoticeSource["runs"]): string {
  const modes = runs.map((r) => (r.label ? `${r.label} ${r.mode}` : r.mode)).join(" · ");
  return `This report combines mock and live runs (${modes}): mock figures other than resilience and prompt size are wiring only, and the mock rows rank nothing about model quality; the live runs' are measurements.`;
}

type NoticeSource = Pick<ReportData, "mode" | "runs" | "cells" | "series">;

function providerFaults(data: NoticeSource): Notice | undefined {
  const faulted = data.cells.filter((c) => c.notServed > 0);
  if (faulted.length === 0) return undefined;
  const total = faulted.reduce((a, c) => a + c.notServed, 0);
  const causes: Record<string, number> = {};
  for (const c of faulted) for (const [cause, n] of Object.entries(c.notServedByCause)) causes[cause] = (causes[cause] ?? 0) + n;
  const sorted = Object.fromEntries(Object.entries(causes).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
  const lanes = faulted.length === 1 ? "1 framework × arena" : `${faulted.length} framework × arena pairs`;
  return {
    kind: "provider-faults",
    text: `Provider faults: ${total} cell${total === 1 ? "" : "s"} in ${lanes} not served by the provider (${causesText(sorted)}). They are left out of every pass rate and figure and shown in their own "not served" column — not counted as failures.`,
  };
}

function partial(data: NoticeSource): Notice | undefined {
  const parts = data.runs.flatMap((r) => {
    const interrupted = Object.entries(r.statuses).filter(([, s]) => s !== "complete").map(([arena]) => arena);
    return interrupted.length === 0 ? [] : [`${data.runs.length > 1 ? `${r.label} ` : ""}${r.runId} on ${interrupted.join(", ")}`];
  });
  if (parts.length === 0) return undefined;
  return { kind: "partial", text: `Partial run: interrupted before it finished (${parts.join("; ")}). Figures cover only the cells it completed; rankings there may change when it is resumed.` };
}

export function bannerNotices(data: NoticeSource): Notice[] {
  const mode: Notice | undefined = data.mode === "mock" ? { kind: "mock", text: MOCK_NOTICE } : data.mode === "mixed" ? { kind: "mixed", text: mixedNotice(data.runs) } : undefined;
  return [mode, providerFaults(data), partial(data)].filter((n): n is Notice => n !== undefined);
}
