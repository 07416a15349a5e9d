/**
 * The adapter cost table (issue 12): what each catalogue adapter costs beyond the baseline, all
 * measured here, on the machine at hand, by this run.
 *
 *   pnpm costs [--runs N] [--write] [--framework NAME]...    # = node scripts/adapter-costs.ts
 *
 * - installed size: the npm packages the adapter's source imports (scripts/costs/imports.ts), their
 *   dependency closure from `pnpm list --json --depth Infinity --prod` minus the harness's own,
 *   `du -skl` of each package directory, each directory counted once (scripts/costs/closure.ts);
 * - cold start: one worker start (spawn → ready → built), each with an empty compile cache, median of `--runs` (default 3);
 * - peak RSS: the adapter's mock bench (every arena it runs) through `runArenas`, one adapter at a
 *   time, concurrency 1, its workers' VmHWM sampled every 100 ms (scripts/costs/peak-rss.ts);
 * - the tools block of its first request with `tools` on `tool_use`, and its mean prompt tokens
 *   per item per arena over the baseline's, both from those benches' gateway records and run records.
 *
 * Prints the markdown section; `--write` replaces it in docs/findings.md (between the markers in
 * scripts/costs/doc.ts; scripts/findings.ts keeps it). `--framework` restricts the adapters (a quick
 * look; not with `--write`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { toJs } from "@agentic-arena/py-semantics";
import { ADAPTER_CATALOG, type CatalogEntry } from "../contract/catalogue.ts";
import { listArenas } from "../orchestrator/arena/discover.ts";
import { loadArena } from "../orchestrator/arena/load.ts";
import type { Arena } from "../orchestrator/arena/schemas.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import { parseCount } from "../orchestrator/config/values.ts";
import { runArenas } from "../orchestrator/run/index.ts";
import { baselineOf, familyOf, replaceSection, SECTION_HEAD, START_MARKER, END_MARKER } from "./costs/doc.ts";
import { coldStartMs, median } from "./support/measure.ts";
import { NODE_HOST_MARKS, PeakRssSampler, type PeakReport } from "./costs/peak-rss.ts";
import { installedSizes } from "./costs/sizes.ts";
import { SEATS, seatRss, type SeatRss } from "./costs/seat-rss.ts";
import { pythonFamilySizes } from "./costs/python-sizes.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const ARENAS_DIR = path.join(ROOT, "arenas");
const CORPUS = path.join(ARENAS_DIR, "corpus.json");
const { values } = parseArgs({
  options: { runs: { type: "string", default: "3" }, write: { type: "boolean", default: false }, framework: { type: "string", multiple: true } },
});
const RUNS = parseCount(values.runs, "--runs");
if (values.write && values.framework) {
  process.stderr.write("adapter-costs: --write regenerates the whole table; drop --framework\n");
  process.exit(2);
}
const entries = ADAPTER_CATALOG.filter((e) => !values.framework || values.framework.includes(e.name));
const families = familyOf(ADAPTER_CATALOG);
const log = (line: string) => process.stderr.write(`${line}\n`);
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(" / ");
const loadAtStart = load();
const startedAt = new Date();

// ---- installed size, per family -------------------------------------------------------------
const sizes = installedSizes(ROOT, ADAPTER_CATALOG.filter((e) => e.runtime === "node"), families);
log(`sizes: ${sizes.total.packages} packages over ${sizes.perFamily.size} families`);
// A Python family's size is its distributions' closure in .venv/ (the Node side's harness packages have no part in it).
const pythonFamilies = new Map(ADAPTER_CATALOG.filter((e) => e.runtime === "python" && families.get(e.name) === e.name).map((e) => [e.name, e.packages]));
const pythonSizes = pythonFamilySizes(pythonFamilies);

// ---- cold start -------------------------------------------------------------------------------
const arenaCache = new Map<string, Arena>();
const arena = (id: string) => arenaCache.get(id) ?? arenaCache.set(id, loadArena(path.join(ARENAS_DIR, id))).get(id)!;
const allArenaIds = listArenas(ARENAS_DIR).map((r) => r.id).filter((id) => id !== "boundary_response");
const arenasOf = (e: CatalogEntry) => (e.arenas ? [...e.arenas] : allArenaIds);
const buildArenaOf = (e: CatalogEntry) => (e.arenas ? e.arenas[0]! : "tool_use");

function coldStart(e: CatalogEntry): Promise<number> {
  const a = arena(buildArenaOf(e));
  return coldStartMs({
    adapter: { name: e.name, module: e.module },
    arena: { id: a.id, tools: [...a.declaredTools], systemPrompt: a.systemPrompt, durable: a.durable },
    corpusPath: CORPUS,
    model: DEFAULTS.model,
  });
}
const starts = new Map<string, number[]>(entries.map((e) => [e.name, []]));
for (let run = 0; run < RUNS; run++) {
  // One start of every adapter per round, so drift in the machine's load falls on all alike.
  for (const e of entries) starts.get(e.name)!.push(await coldStart(e));
  log(`cold starts: round ${run + 1}/${RUNS} done`);
}

// ---- benches ----------------------------------------------------------------------------------
interface Bench {
  readonly peak: PeakReport;
  readonly toolsBytes?: number;
  /** arena → mean prompt tokens per item. */
  readonly prompt: Map<string, number>;
  readonly items: number;
  readonly seconds: number;
  /** Items that errored, by error class (adapter errors on resilience items are some frameworks' behaviour). */
  readonly errors: Map<string, number>;
  readonly unavailable: string[];
}
async function bench(e: CatalogEntry): Promise<Bench> {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-costs-bench-"));
  const sampler = new PeakRssSampler({ intervalMs: 100, match: e.runtime === "python" ? "arena_host" : NODE_HOST_MARKS });
  const t0 = performance.now();
  await sampler.start();
  let peak: PeakReport;
  let outcome: Awaited<ReturnType<typeof runArenas>>;
  try {
    outcome = await runArenas({
      arenas: arenasOf(e).map(arena),
      adapters: [{ name: e.name, module: e.module, variant: e.arenas !== undefined, ...(e.arenas ? { onlyArenas: e.arenas } : {}) }],
      config: DEFAULTS,
      corpusPath: CORPUS,
      concurrency: 1,
      dirs: { logDir: path.join(root, "logs"), checkpointRoot: path.join(root, "ck") },
    });
  } finally {
    peak = await sampler.stop();
  }
  const seconds = (performance.now() - t0) / 1000;
  rmSync(root, { recursive: true, force: true });
  const first = outcome.gatewayRecords.get("tool_use")?.requests.find((r) => r.tag.startsWith(`${e.name}__tool_use__`) && r.body.has("tools"));
  const toolsBytes = first ? Buffer.byteLength(JSON.stringify(toJs(first.body.get("tools")!)), "utf8") : undefined;
  const prompt = new Map<string, number>();
  const errors = new Map<string, number>();
  const unavailable: string[] = [];
  let items = 0;
  for (const r of outcome.records) {
    for (const f of r.frameworks.filter((x) => x.framework === e.name)) {
      if (!f.available) unavailable.push(`${r.arena} (${f.unavailable_kind})`);
      if (f.items.length) prompt.set(r.arena, f.items.reduce((a, i) => a + i.prompt_tokens, 0) / f.items.length);
      items += f.items.length;
      for (const i of f.items) if (i.error !== null) errors.set(i.error_class ?? "?", (errors.get(i.error_class ?? "?") ?? 0) + 1);
    }
  }
  return { peak, toolsBytes, prompt, items, seconds, errors, unavailable };
}
const benches = new Map<string, Bench>();
for (const e of entries) {
  benches.set(e.name, await bench(e));
  log(`bench: ${e.name} done (${benches.get(e.name)!.seconds.toFixed(0)} s)`);
}

// ---- seats: what a further item in a worker costs (Node host only; a Python worker carries one) ----
const seats = new Map<string, SeatRss>();
for (const e of entries.filter((x) => x.runtime === "node")) {
  seats.set(e.name, await seatRss({ name: e.name, module: e.module, variant: e.arenas !== undefined }, arena(buildArenaOf(e)), CORPUS));
  log(`seats: ${e.name} done`);
}

// ---- the section ------------------------------------------------------------------------------
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const ratioArenas = allArenaIds.filter((id) => entries.some((e) => benches.get(e.name)!.prompt.has(id)));
const header = ["adapter", "adds (MB, packages)", "of which shared (MB)", `cold start (ms, median of ${RUNS})`, "peak worker RSS in bench (MiB)", `worker RSS, ${SEATS} items at once (MiB)`, "RSS per further item (MiB)", "tools block on `tool_use` (bytes)", ...ratioArenas.map((a) => `prompt ratio \`${a}\``)];
const rows = [`| ${header.join(" | ")} |`, `|---|${header.slice(1).map(() => "--:").join("|")}|`];
for (const e of entries) {
  const family = families.get(e.name)!;
  const b = benches.get(e.name)!;
  const base = benches.get(baselineOf(e.name, family));
  const py = pythonSizes.get(family);
  const g = sizes.perFamily.get(family);
  const own =
    e.runtime === "python"
      ? [py ? `${mb(py.bytes)} (${py.packages} Python)` : "— (no .venv)", "—"]
      : [`${mb(g!.bytes)} (${g!.packages})`, mb(g!.sharedBytes)];
  const size = family === e.name ? own : [`as \`${family}\``, `as \`${family}\``];
  const ratios = ratioArenas.map((a) => {
    const own = b.prompt.get(a);
    const theirs = base?.prompt.get(a);
    return own !== undefined && theirs ? (own / theirs).toFixed(2) : "—";
  });
  const seat = seats.get(e.name);
  const seatCells = seat ? [mib(seat.seatedBytes), (seat.perSeatBytes / 2 ** 20).toFixed(1)] : ["— (one a worker)", "—"];
  rows.push(`| \`${e.name}\` | ${size.join(" | ")} | ${median(starts.get(e.name)!).toFixed(0)} | ${mib(b.peak.peakBytes)} | ${seatCells.join(" | ")} | ${b.toolsBytes ?? "—"} | ${ratios.join(" | ")} |`);
}
rows.push(`| total, shared packages once | ${mb(sizes.total.bytes)} (${sizes.total.packages}) | — | — | — | — | — | — | ${ratioArenas.map(() => "—").join(" | ")} |`);

const notes = entries.flatMap((e) => {
  const b = benches.get(e.name)!;
  const errs = [...b.errors].map(([k, n]) => `${k} × ${n}`).join(", ");
  return [`\`${e.name}\`: ${b.items} items in ${b.seconds.toFixed(0)} s, ${b.peak.processes} worker process(es) seen, ${b.peak.samples} samples (longest gap ${b.peak.maxGapMs.toFixed(0)} ms)${errs ? `; items that errored, by class: ${errs}` : ""}${b.unavailable.length ? `; unavailable: ${b.unavailable.join(", ")}` : ""}`];
});
const section = [
  START_MARKER,
  ...SECTION_HEAD,
  ...rows,
  "",
  `Measured ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC, node ${process.versions.node}, ${os.cpus().length} cores, ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM; load average (1 / 5 / 15 min) ${loadAtStart} at the start, ${load()} at the end.`,
  `The harness's own closure, left out above: ${sizes.harness.packages} packages, ${mb(sizes.harness.bytes)} MB (a Python ` +
    "family's size is its distributions' closure in `.venv/`, the standard library left out; what families share is not split out there)." +
    (sizes.missing.length ? ` Imported but not a dependency of the project: ${sizes.missing.join(", ")}.` : ""),
  "",
  "Benches: " + notes.join("; ") + ".",
  END_MARKER,
].join("\n");

process.stdout.write(`${section}\n`);
if (values.write) {
  const file = path.join(ROOT, "docs", "findings.md");
  writeFileSync(file, replaceSection(readFileSync(file, "utf8"), section));
  log("wrote docs/findings.md (adapter cost table)");
}
