/**
 * What differs between two honest runs of the same plan, taken out so a merged run can be compared
 * with an unsharded one: the run's own name and clock, every timing, the command line, the
 * process, and the ids the mock gateway draws for its tool calls.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const RUN_ID = /\d{8}T\d{9}Z-[0-9a-f]{6}/g;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
const CALL_ID = /call_[0-9a-f]{8,}/g;
/**
 * Keys whose values are timings, or the command and process that made the run — and the report's
 * bootstrap intervals, whose seed is named after the run id (report/html/data.ts), so two unsharded
 * runs of one plan differ there too.
 */
const MASKED_KEYS = /latency|duration|seconds|_ms$|_s$|^generatedAt$|^command$|^argv$|^pid$|^start_ticks$|^concurrency$|^meanInterval$/i;

export function maskText(text: string): string {
  return text.replace(RUN_ID, "(run)").replace(ISO_TIME, "(time)").replace(CALL_ID, "(call)").replace(/\b\d+(\.\d+)?s\b/g, "(secs)");
}

export function maskJson(value: unknown, key = ""): unknown {
  if (MASKED_KEYS.test(key)) return "(masked)";
  if (typeof value === "string") return maskText(value);
  if (Array.isArray(value)) return value.map((v) => maskJson(v));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJson(v, k)]));
  return value;
}

export const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

/** A scorecard CSV with its timing columns blanked. */
export function maskCsv(text: string): string {
  const [header, ...rows] = text.trimEnd().split("\n");
  const timed = header!.split(",").flatMap((name, i) => (MASKED_KEYS.test(name) ? [i] : []));
  return [header, ...rows.map((r) => r.split(",").map((cell, i) => (timed.includes(i) ? "(masked)" : cell)).join(","))].join("\n");
}

/** The report: its JSON blocks parsed and masked, and the page around them masked as text. */
export function maskReport(file: string): { page: string; blocks: [string, unknown][] } {
  const html = readFileSync(file, "utf8");
  const block = /<script type="application\/json" id="([^"]*)">([\s\S]*?)<\/script>/g;
  const blocks = [...html.matchAll(block)].map((m): [string, unknown] => [m[1]!, maskJson(JSON.parse(m[2]!))]);
  return { page: maskText(html.replace(block, "(data)")), blocks };
}

/** Every file of a run folder the comparison reads, masked, by its path in the folder. */
export function comparableRun(runDir: string, arenas: readonly string[], adapter: string): Record<string, unknown> {
  const out: Record<string, unknown> = { "summary.md": maskText(readFileSync(path.join(runDir, "summary.md"), "utf8")) };
  for (const arena of arenas) {
    out[`records/${arena}.json`] = maskJson(readJson(path.join(runDir, "records", `${arena}.json`)));
    out[`transcripts/${arena}/${adapter}.json`] = maskJson(readJson(path.join(runDir, "transcripts", arena, `${adapter}.json`)));
    for (const f of ["scorecard.md", "scorecard.json", "scorecard.csv"]) {
      const text = readFileSync(path.join(runDir, "scorecards", arena, f), "utf8");
      out[`scorecards/${arena}/${f}`] = f.endsWith(".json") ? maskJson(JSON.parse(text)) : f.endsWith(".csv") ? maskCsv(text) : maskText(text);
    }
  }
  out["report.html"] = maskReport(path.join(runDir, "report.html"));
  return out;
}
