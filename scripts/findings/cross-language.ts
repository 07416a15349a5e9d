/**
 * The cross-language table (issue 22): one row per framework present in both languages, its
 * TypeScript edition beside its Python one (`<name>` and `<name>-py`, a variant `<name>-multi` and
 * `<name>-py-multi`), every figure from the same `pnpm findings` run on our arenas except cold start
 * and RSS, which are the adapter cost table's (`pnpm costs --write`), read back from it. What each
 * edition's findings are is read off `arenas/expectations.toml`: the items it is expected to fail and
 * the witness rules it is expected to break.
 */
import type { ExpectedEntry } from "../../orchestrator/expectations/index.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { formatFixed } from "@agentic-arena/py-semantics";

export interface EditionFacts {
  readonly toolsChars?: number;
  /** Files in the item folders on `human_in_the_loop` and `durable_state`, in all. */
  readonly checkpointFiles: number;
}

/** Each TypeScript entry with a Python twin in `names`, as [ts, py] pairs in catalogue order. */
export function twins(names: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (const ts of names) {
    const py = ts.endsWith("-multi") ? `${ts.slice(0, -"-multi".length)}-py-multi` : `${ts}-py`;
    if (!ts.includes("-py") && names.includes(py)) out.push([ts, py]);
  }
  return out;
}

/** `| \`name\` | … | cold | rss | …` rows of the cost table → name → [cold start ms, RSS MiB] as printed. */
export function costCells(costs: string | undefined): Map<string, [string, string]> {
  const out = new Map<string, [string, string]>();
  for (const line of (costs ?? "").split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const name = /^`([^`]+)`$/.exec(cells[1] ?? "")?.[1];
    if (name && cells.length > 6) out.set(name, [cells[4]!, cells[5]!]);
  }
  return out;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

function perArena(records: readonly RunRecord[], name: string, pick: (i: { prompt_tokens: number; llm_calls: number }) => number): string {
  const cells = [...records]
    .sort((a, b) => a.arena.localeCompare(b.arena))
    .flatMap((r) => {
      const f = r.frameworks.find((x) => x.framework === name);
      return f?.available && f.items.length ? [`${r.arena} ${formatFixed(mean(f.items.map(pick)), 1)}`] : [];
    });
  return cells.join(", ") || "—";
}

function resumeBytes(records: readonly RunRecord[], name: string): string {
  const sizes = records.flatMap((r) =>
    (r.frameworks.find((x) => x.framework === name)?.items ?? []).flatMap((i) => (i.legs ?? []).flatMap((l) => (l.resume_state_bytes === undefined ? [] : [l.resume_state_bytes]))),
  );
  return sizes.length ? formatFixed(mean(sizes), 0) : "—";
}

function findingsOf(entries: readonly ExpectedEntry[], name: string): string {
  const own = entries.filter((e) => e.framework === name);
  if (own.length === 0) return "none";
  return own.map((e) => `${e.arena} ${e.rule ? `breaks ${e.rule}` : "fails"} ×${e.items.length}`).join("; ");
}

export function crossLanguageSection(args: {
  readonly names: readonly string[];
  readonly pause: ReadonlyMap<string, string>;
  readonly records: readonly RunRecord[];
  readonly facts: ReadonlyMap<string, EditionFacts>;
  readonly costs: string | undefined;
  readonly expectations: readonly ExpectedEntry[];
  readonly notes: Readonly<Record<string, string>>;
}): string[] {
  const pairs = twins(args.names);
  const out = ["## The same framework in two languages (our arenas)", ""];
  if (pairs.length === 0) return [...out, "No framework has both editions in the catalogue yet.", ""];
  const cost = costCells(args.costs);
  out.push(
    "One row per edition, the TypeScript one first. Prompt tokens and LLM calls are means per item per arena, as the",
    "gateway served them; cold start and peak RSS are the adapter cost table's (below), `—` where it has no row yet.",
    "",
    "| framework | edition | tools block on `tool_use` (chars) | prompt tokens / item | LLM calls / item | pause | mean resume_state (bytes) | files in item folders (pause arenas) | cold start (ms) | peak RSS (MiB) | findings (expectations.toml) |",
    "|---|---|--:|---|---|---|--:|--:|--:|--:|---|",
  );
  for (const [ts, py] of pairs) {
    for (const [edition, name] of [["TypeScript", ts], ["Python", py]] as const) {
      const f = args.facts.get(name);
      const [cold, rss] = cost.get(name) ?? ["—", "—"];
      out.push(
        `| \`${ts}\` | ${edition} (\`${name}\`) | ${f?.toolsChars ?? "—"} | ${perArena(args.records, name, (i) => i.prompt_tokens)} | ${perArena(args.records, name, (i) => i.llm_calls)} | ${args.pause.get(name) ?? "—"} | ${resumeBytes(args.records, name)} | ${f?.checkpointFiles ?? 0} | ${cold} | ${rss} | ${findingsOf(args.expectations, name)} |`,
      );
    }
  }
  const explained = pairs.map(([ts]) => ts).filter((ts) => args.notes[ts]);
  if (explained.length) {
    out.push("", "Where the two editions differ, and why (a default, a prompt or a bug):", "");
    for (const ts of explained) out.push(`- \`${ts}\`: ${args.notes[ts]}`);
  }
  out.push("");
  return out;
}
