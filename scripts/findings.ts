/**
 * Regenerates docs/findings.md: every number in it comes from this script's own runs (or from the
 * transport probe's findings file), never typed by hand.
 *
 *   node scripts/findings.ts            # = pnpm findings
 *
 * It runs every catalogue adapter in mock mode on our arenas and on the reference arenas (when
 * ../shared/reference is present), through the real orchestrator and gateway, and reads
 * runs/findings/transport.json written by `pnpm exec vitest run tests/probes/transport.test.ts`.
 * The adapter cost table (between the adapter-costs markers) is scripts/adapter-costs.ts's: this
 * script keeps it as it finds it, at the end of the file.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { listArenas } from "../orchestrator/arena/discover.ts";
import { loadArena } from "../orchestrator/arena/load.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import type { AdapterRecord, RunRecord } from "../orchestrator/report/record.ts";
import { runArenas, type AdapterEntry } from "../orchestrator/run/index.ts";
import { ADAPTER_CATALOG } from "../contract/catalogue.ts";
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import { formatFixed } from "@agentic-arena/py-semantics";
import { extractSection } from "./costs/doc.ts";
import { firstRequestParts, seed000Section, type FirstRequest } from "./findings/seed-000.ts";
import { SEED_000_NOTES } from "./findings/seed-000-notes.ts";
import { crossLanguageSection } from "./findings/cross-language.ts";
import { CROSS_LANGUAGE_NOTES } from "./findings/cross-language-notes.ts";
import { loadExpectations } from "../orchestrator/expectations/index.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const REFERENCE = path.resolve(ROOT, "../shared/reference/agentic-arena-py");

interface Suite {
  readonly title: string;
  readonly records: RunRecord[];
  /** adapter → arena → characters of the tools block of its first request. */
  readonly toolsChars: Map<string, Map<string, number>>;
  /** adapter → the mean parts of each item's first request on `tool_use` (seed 000's reproduction). */
  readonly toolUseFirst: Map<string, FirstRequest>;
  /** adapter → arena → files written under its checkpoint directory. */
  readonly checkpointFiles: Map<string, Map<string, { name: string; bytes: number }[]>>;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

async function runSuite(title: string, arenasDir: string, corpusPath: string): Promise<Suite> {
  const arenas = listArenas(arenasDir)
    .filter((ref) => ref.id !== "boundary_response")
    .map((ref) => loadArena(ref.dir));
  const adapters: AdapterEntry[] = ADAPTER_CATALOG.map((e) => ({
    name: e.name,
    module: e.module,
    variant: e.arenas !== undefined,
    ...(e.arenas ? { onlyArenas: e.arenas } : {}),
  }));
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-findings-"));
  const checkpointsDir = path.join(root, "ck");
  const dirs = { logDir: path.join(root, "logs"), checkpointRoot: checkpointsDir };
  const outcome = await runArenas({ arenas, adapters, config: DEFAULTS, corpusPath, dirs });
  const toolsChars = new Map<string, Map<string, number>>();
  const checkpointFiles = new Map<string, Map<string, { name: string; bytes: number }[]>>();
  for (const [arenaId, records] of outcome.gatewayRecords) {
    for (const a of adapters) {
      const first = records.requests.find((r) => r.tag.startsWith(`${a.name}__${arenaId}__`));
      const tools = first?.body.get("tools");
      if (tools === undefined) continue;
      if (!toolsChars.has(a.name)) toolsChars.set(a.name, new Map());
      toolsChars.get(a.name)!.set(arenaId, dumpsPy(tools ?? fromJs([])).length);
    }
  }
  const toolUseFirst = new Map<string, FirstRequest>();
  const toolUseRecords = outcome.gatewayRecords.get("tool_use");
  for (const a of adapters) {
    const bodies = (toolUseRecords?.requests ?? []).filter((r) => r.tag.startsWith(`${a.name}__tool_use__`)).map((r) => r.body);
    const parts = bodies.length ? firstRequestParts(bodies) : undefined;
    if (parts) toolUseFirst.set(a.name, parts);
  }
  for (const adapter of readdirSync(checkpointsDir)) {
    for (const arena of readdirSync(path.join(checkpointsDir, adapter))) {
      const base = path.join(checkpointsDir, adapter, arena);
      const files = walk(base).map((f) => ({ name: path.relative(base, f), bytes: statSync(f).size }));
      if (!checkpointFiles.has(adapter)) checkpointFiles.set(adapter, new Map());
      checkpointFiles.get(adapter)!.set(arena, files);
    }
  }
  return { title, records: outcome.records, toolsChars, toolUseFirst, checkpointFiles };
}

function describeFiles(files: readonly { name: string; bytes: number }[]): string {
  if (files.length === 0) return "none";
  const total = files.reduce((a, f) => a + f.bytes, 0);
  return `${files.length} file(s), ${formatFixed(total / 1024, 0)} KiB in all (e.g. \`${files[0]!.name}\`, ${formatFixed(files[0]!.bytes / 1024, 0)} KiB)`;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const adapterRecord = (r: RunRecord, name: string) => r.frameworks.find((f) => f.framework === name);
const meanOf = (f: AdapterRecord, k: "prompt_tokens" | "completion_tokens" | "llm_calls") => mean(f.items.map((i) => i[k]));

function suiteSection(s: Suite): string[] {
  const records = [...s.records].sort((a, b) => a.arena.localeCompare(b.arena));
  const names = ADAPTER_CATALOG.map((e) => e.name);
  const out = [`## ${s.title}`, ""];

  out.push("### Pass rate and mean usage per item (prompt / completion / LLM calls)", "");
  out.push(`| arena | ${names.map((n) => `\`${n}\``).join(" | ")} |`, `|---|${names.map(() => "---").join("|")}|`);
  for (const r of records) {
    const cells = names.map((n) => {
      const f = adapterRecord(r, n);
      if (!f) return "—";
      if (!f.available) return `n/a (${f.unavailable_kind})`;
      const passed = f.items.filter((i) => i.passed).length;
      return `${passed}/${f.items.length} · ${formatFixed(meanOf(f, "prompt_tokens"), 1)} / ${formatFixed(meanOf(f, "completion_tokens"), 1)} / ${formatFixed(meanOf(f, "llm_calls"), 2)}`;
    });
    out.push(`| \`${r.arena}\` | ${cells.join(" | ")} |`);
  }

  out.push("", "### Prompt overhead vs the baseline (Σ mean prompt tokens over the arenas both ran)", "");
  out.push("| adapter | prompt tokens / item on `tool_use` | vs `vanilla` (tool_use) | vs `vanilla` (all shared arenas) | tools block on `tool_use` (chars) |", "|---|--:|--:|--:|--:|");
  const toolUse = records.find((r) => r.arena === "tool_use");
  const baseTool = toolUse && adapterRecord(toolUse, "vanilla");
  for (const n of names) {
    let own = 0;
    let base = 0;
    for (const r of records) {
      const f = adapterRecord(r, n);
      const b = adapterRecord(r, "vanilla");
      if (f?.available && b?.available && f.items.length && b.items.length) {
        own += meanOf(f, "prompt_tokens");
        base += meanOf(b, "prompt_tokens");
      }
    }
    const t = toolUse && adapterRecord(toolUse, n);
    const tu = t?.available && t.items.length ? meanOf(t, "prompt_tokens") : undefined;
    const ratioTu = tu !== undefined && baseTool?.available ? `${formatFixed(tu / meanOf(baseTool, "prompt_tokens"), 2)}×` : "—";
    out.push(
      `| \`${n}\` | ${tu !== undefined ? formatFixed(tu, 1) : "—"} | ${ratioTu} | ${base > 0 ? `${formatFixed(own / base, 2)}×` : "—"} | ${s.toolsChars.get(n)?.get("tool_use") ?? "—"} |`,
    );
  }

  const res = records.find((r) => r.arena === "resilience");
  if (res) {
    out.push("", "### Resilience (comparable in mock mode: the faults are byte-identical for everyone)", "");
    out.push("| adapter | recovered | failed items (error) |", "|---|--:|---|");
    for (const f of res.frameworks.filter((x) => x.available)) {
      const failed = f.items.filter((i) => !i.passed).map((i) => `\`${i.item_id}\`${i.error ? ` (${i.error.split("\n")[0]!.slice(0, 80)})` : ""}`);
      out.push(`| \`${f.framework}\` | ${f.items.filter((i) => i.passed).length}/${f.items.length} | ${failed.join("; ") || "—"} |`);
    }
  }

  out.push("", "### Pausing and durability", "");
  out.push("| adapter | arena | passed | paused items | mean resume_state (bytes) | files in the checkpoint dir |", "|---|---|--:|--:|--:|---|");
  for (const r of records.filter((x) => x.arena === "human_in_the_loop" || x.arena === "durable_state")) {
    for (const f of r.frameworks) {
      if (!f.available) {
        out.push(`| \`${f.framework}\` | \`${r.arena}\` | ${f.unavailable_kind} | — | — | — |`);
        continue;
      }
      const sizes = f.items.flatMap((i) => (i.legs ?? []).flatMap((l) => (l.resume_state_bytes !== undefined ? [l.resume_state_bytes] : [])));
      const files = s.checkpointFiles.get(f.framework)?.get(r.arena) ?? [];
      out.push(
        `| \`${f.framework}\` | \`${r.arena}\` | ${f.items.filter((i) => i.passed).length}/${f.items.length} | ${f.items.filter((i) => (i.suspends ?? 0) > 0).length} | ${sizes.length ? formatFixed(mean(sizes), 0) : "—"} | ${describeFiles(files)} |`,
      );
    }
  }

  out.push("", "### Reported usage vs what the gateway served", "");
  const mismatches: string[] = [];
  for (const r of records) {
    for (const f of r.frameworks) {
      for (const i of f.items) {
        // The record's figures are the gateway's; what the adapter said is kept as `reported`.
        const said = i.reported;
        if (said && (said.prompt_tokens !== i.prompt_tokens || said.completion_tokens !== i.completion_tokens || said.llm_calls !== i.llm_calls)) {
          mismatches.push(`\`${f.framework}\` \`${r.arena}/${i.item_id}\`: reported ${said.prompt_tokens}/${said.completion_tokens}/${said.llm_calls}, served ${i.prompt_tokens}/${i.completion_tokens}/${i.llm_calls}`);
        }
      }
    }
  }
  out.push(mismatches.length ? mismatches.map((m) => `- ${m}`).join("\n") : "Every adapter's reported usage equals what the gateway served, on every item.");

  out.push("", "### Rule violations the witness saw (every request of every item)", "");
  const seen: string[] = [];
  for (const r of records) {
    for (const f of r.frameworks) {
      const byRule = new Map<string, { items: string[]; first: string }>();
      for (const i of f.items) {
        for (const v of i.violations ?? []) {
          const entry = byRule.get(v.rule) ?? { items: [], first: v.detail };
          if (!entry.items.includes(i.item_id)) entry.items.push(i.item_id);
          byRule.set(v.rule, entry);
        }
      }
      for (const [rule, e] of byRule) {
        seen.push(`| \`${f.framework}\` | \`${r.arena}\` | \`${rule}\` | ${e.items.map((id) => `\`${id}\``).join(", ")} | ${e.first.replaceAll("|", "\\|").replaceAll("\n", " ")} |`);
      }
    }
  }
  out.push(
    seen.length
      ? ["| adapter | arena | rule | items | first evidence |", "|---|---|---|---|---|", ...seen].join("\n")
      : "No adapter broke a rule on any request.",
  );
  out.push("");
  return out;
}

function transportSection(): string[] {
  const file = path.join(ROOT, "runs", "findings", "transport.json");
  const out = ["## Transport (not gated)", ""];
  if (!existsSync(file)) {
    out.push("_No transport findings yet: run `pnpm exec vitest run tests/probes/transport.test.ts`, then this script._", "");
    return out;
  }
  const data = JSON.parse(readFileSync(file, "utf8"));
  out.push(`From \`${data.probe}\` (${data.generated_at}). ${data.note}`, "");
  out.push("| adapter | case | attempts | statuses | backoff gaps (s) | outcome |", "|---|---|--:|---|---|---|");
  for (const row of data.rows ?? []) {
    out.push(
      `| \`${row.adapter}\` | ${row.case} | ${row.attempts} | ${(row.statuses ?? []).join(", ")} | ${(row.backoff_gaps_s ?? []).join(", ") || "—"} | ${row.outcome}${row.error ? `: ${String(row.error).split("\n")[0]!.slice(0, 60)}` : ""} |`,
    );
  }
  out.push("");
  return out;
}

/** Seed 000's table beside ours, from the reference suite (none without ../shared/reference). */
function seed000(reference: Suite | undefined): string[] {
  const toolUse = reference?.records.find((r) => r.arena === "tool_use");
  return seed000Section(toolUse, reference?.toolUseFirst ?? new Map(), SEED_000_NOTES);
}

const suites: Suite[] = [await runSuite("Our arenas", path.join(ROOT, "arenas"), path.join(ROOT, "arenas", "corpus.json"))];
if (existsSync(path.join(REFERENCE, "arenas"))) {
  suites.push(await runSuite("Reference arenas (the original project's data)", path.join(REFERENCE, "arenas"), path.join(REFERENCE, "corpus.json")));
}
// The adapter cost table is scripts/adapter-costs.ts's (`pnpm costs --write`): kept as it is.
const findingsFile = path.join(ROOT, "docs", "findings.md");
const costs = existsSync(findingsFile) ? extractSection(readFileSync(findingsFile, "utf8")) : undefined;

/** Both editions of a framework side by side, from our arenas' suite. */
function crossLanguage(ours: Suite): string[] {
  const facts = new Map(
    ADAPTER_CATALOG.map((e) => {
      const files = ["human_in_the_loop", "durable_state"].reduce((n, a) => n + (ours.checkpointFiles.get(e.name)?.get(a)?.length ?? 0), 0);
      return [e.name, { toolsChars: ours.toolsChars.get(e.name)?.get("tool_use"), checkpointFiles: files }];
    }),
  );
  return crossLanguageSection({
    names: ADAPTER_CATALOG.map((e) => e.name),
    pause: new Map(ADAPTER_CATALOG.map((e) => [e.name, e.pause])),
    records: ours.records,
    facts,
    costs,
    expectations: loadExpectations(path.join(ROOT, "arenas", "expectations.toml")).entries,
    notes: CROSS_LANGUAGE_NOTES,
  });
}

const lines = [
  "# Findings",
  "",
  "Generated by `pnpm findings` (`node scripts/findings.ts`) on " + new Date().toISOString().slice(0, 10) + `, node ${process.versions.node}, mock mode.`,
  "Do not edit by hand. Mock mode compares two things across frameworks — resilience and prompt size —",
  "everything else here is wiring (see docs/methodology.md).",
  "",
  ...suites.flatMap(suiteSection),
  ...crossLanguage(suites[0]!),
  ...seed000(suites[1]),
  ...transportSection(),
];
if (costs !== undefined) lines.push(costs, "");
writeFileSync(findingsFile, lines.join("\n"));
console.log("wrote docs/findings.md");
