/**
 * The HTML report at scale: size in bytes and load time in headless Chromium of a synthetic run
 * with 10,000 items (5 frameworks × 2,000 items over 4 arenas, deterministic), against a floor
 * taken in the same run: the report of a run with no items, which inlines the same libraries.
 *
 *   node scripts/report-size.ts [--frameworks N] [--items N] [--loads N] [--keep]
 *
 * Three reports are built: the floor (no items), the items (records only), and the items with
 * transcripts (every item with a 2–3 request transcript, as a recorder would write it). Each is
 * opened `--loads` times (default 5; interleaved, so all three see the same machine load) in a
 * fresh page; the medians are printed. `ready` is the page's own clock when drawing ends
 * (data-ready-ms, from navigation start: read, HTML parse, scripts, JSON parse, DOM built), `client
 * draw` its share after the client script started (data-draw-ms); `whole file parsed` is
 * DOMContentLoaded (the details and transcript blocks follow the client script, so the page is
 * drawn before the parser has read them); `wall` is goto → data-ready seen by the driver; `open item` is a click on the first item-table cell until the item view
 * shows, with its transcript drawn as chat turns where the run has transcripts (the first open
 * parses the details block and that framework × arena's transcript block); `first search` is the
 * client's time for a /regex/ search over every question and full answer, after that open.
 * Figures go into docs/performance.md ("HTML report") by hand.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { AdapterRecord, ItemRecord, RunRecord } from "../orchestrator/report/record.ts";
import { compactRequest, transcriptKey, type JsonObject, type JsonValue, type LaneTranscriptFile } from "../orchestrator/report/html/transcript.ts";
import { writeRunReport } from "../orchestrator/report/html/write.ts";
import type { Browser } from "playwright-core";
import { chromiumPath, launchChromium } from "../tests/support/chromium.ts";
import { mulberry32 } from "../orchestrator/stats/prng.ts";
import { median } from "./support/measure.ts";

const { values } = parseArgs({
  options: {
    frameworks: { type: "string", default: "5" },
    items: { type: "string", default: "2000" },
    loads: { type: "string", default: "5" },
    keep: { type: "boolean", default: false },
  },
});
const FRAMEWORKS = ["vanilla", "openai_agents", "langgraph", "mastra", "crewai"].slice(0, Number(values.frameworks));
const ITEMS = Number(values.items);
const LOADS = Number(values.loads);
const ARENAS = ["durable_state", "rag", "resilience", "tool_use"];
const RUN_ID = "20261201T000000000Z-5c41e0";

const words = "the tower stands in the city and was completed in a year with a height in metres that the passage names".split(" ");
function sentence(rand: () => number, n: number): string {
  return Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(" ");
}

function synthItem(rand: () => number, arena: string, index: number): ItemRecord {
  const roll = rand();
  const error = roll < 0.02;
  const passed = !error && roll > 0.12;
  const durable = arena === "durable_state";
  const prompt = 600 + Math.floor(rand() * 1200);
  return {
    repeat: 0,
    item_id: `${arena.slice(0, 3)}-${String(index + 1).padStart(4, "0")}`,
    passed,
    checks: [
      { type: "icontains", ok: passed, detail: `expected substring (ci) '${sentence(rand, 2)}'`, spec: { type: "icontains" } },
      { type: "tool_used", ok: true, detail: "expected tool 'search' to be called", spec: { type: "tool_used" } },
    ],
    output_text: error ? "" : sentence(rand, 25 + Math.floor(rand() * 20)),
    tool_calls: ["search", "calculator"],
    prompt_tokens: prompt,
    completion_tokens: 40 + Math.floor(rand() * 80),
    latency_s: Math.round((0.2 + rand() * 2) * 1e4) / 1e4,
    llm_calls: 2 + Math.floor(rand() * 3),
    error: error ? "adapter gave up: iteration budget exhausted" : null,
    ...(error ? { error_class: "adapter" as const } : {}),
    ...(rand() < 0.03 ? { violations: [{ rule: "tool-output", leg: 1, request: 2, detail: "calculator result rewritten" }] } : {}),
    ...(durable
      ? {
          suspends: 1,
          legs: [0, 1].map((leg) => ({ prompt_tokens: Math.floor(prompt / 2), completion_tokens: 30, llm_calls: 2, tool_calls: ["search"], suspended: leg === 0, ...(leg === 0 ? { resume_state_bytes: 9000 + Math.floor(rand() * 5000) } : {}) })),
        }
      : {}),
  };
}

function synthTranscript(rand: () => number, arena: string, adapter: string, items: readonly ItemRecord[]): LaneTranscriptFile {
  const blocks: Record<string, JsonValue> = {};
  const system = `You are the ${arena} agent. ${sentence(mulberry32(7), 120)}`;
  const tools: JsonValue = ["search", "calculator"].map((name) => ({ type: "function", function: { name, description: sentence(mulberry32(name.length), 20), parameters: { type: "object", properties: { q: { type: "string" } } } } }));
  const out: LaneTranscriptFile["items"] = {};
  for (const item of items) {
    const messages: JsonValue[] = [{ role: "system", content: system }, { role: "user", content: sentence(rand, 15) }];
    const exchanges = [];
    const turns = 2 + Math.floor(rand() * 2);
    for (let t = 0; t < turns; t++) {
      const body: JsonObject = { model: "gpt-4.1-mini", temperature: 0, messages: [...messages], tools };
      const last = t === turns - 1;
      const call = { id: `call_${t}`, type: "function", function: { name: "search", arguments: JSON.stringify({ q: sentence(rand, 4) }) } };
      const message: JsonObject = last ? { role: "assistant", content: item.output_text } : { role: "assistant", content: null, tool_calls: [call] };
      exchanges.push({ request: compactRequest(body, blocks), reply: { json: { choices: [{ index: 0, finish_reason: last ? "stop" : "tool_calls", message }] } }, usage: { prompt_tokens: 300 + t * 150, completion_tokens: 30 } });
      if (!last) messages.push(message, { role: "tool", tool_call_id: call.id, content: sentence(rand, 60) });
    }
    out[transcriptKey(item.item_id, item.repeat)] = { legs: [{ exchanges }] };
  }
  return { format_version: 1, arena, framework: adapter, blocks, items: out };
}

function writeRun(dir: string, itemsPerArena: number, transcripts: boolean): void {
  const rand = mulberry32(20261201);
  mkdirSync(path.join(dir, "records"), { recursive: true });
  const manifest = { format_version: 2, run_id: RUN_ID, command: "bench", argv: ["bench"], created_at: "2026-12-01T00:00:00Z", mode: "mock", repeat: 1, frameworks: ["all"], arenas: [], corpus: { path: "-", sha256: "-" }, config: {}, config_hash: "-", sessions: [{ started_at: "2026-12-01T00:00:00Z", status: "complete" }] };
  writeFileSync(path.join(dir, "run.json"), JSON.stringify(manifest));
  for (const arena of ARENAS) {
    const adapterRecords: AdapterRecord[] = FRAMEWORKS.map((adapter) => {
      const items = Array.from({ length: itemsPerArena }, (_, i) => synthItem(rand, arena, i));
      if (transcripts) {
        mkdirSync(path.join(dir, "transcripts", arena), { recursive: true });
        writeFileSync(path.join(dir, "transcripts", arena, `${adapter}.json`), JSON.stringify(synthTranscript(rand, arena, adapter, items)));
      }
      return { framework: adapter, available: true, lib_version: `${adapter} 1.0.0`, variant: false, isolation: { level: "sandbox", network: "sealed", tool: "bubblewrap" }, items };
    });
    const record: RunRecord = { schema: 1, format_version: 2, run_id: RUN_ID, status: "complete", arena, arena_description: arena, mode: "mock", model: "mock-model", temperature: 0, repeat: 1, dataset_size: itemsPerArena, started_at: "2026-12-01T00:00:00Z", duration_s: 1, harness_version: "0.1.0", node: process.versions.node, platform: `${process.platform}-${process.arch}`, pricing: { input_per_m: 0.4, output_per_m: 1.6 }, frameworks: adapterRecords };
    writeFileSync(path.join(dir, "records", `${arena}.json`), JSON.stringify(record));
  }
}


interface Timings {
  ready: number[];
  draw: number[];
  parsed: number[];
  wall: number[];
  open: number[];
  search: number[];
}

async function loadOnce(browser: Browser, file: string, transcripts: boolean, t: Timings): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const w0 = performance.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector("html[data-ready]", { timeout: 120_000 });
  t.wall.push(performance.now() - w0);
  t.ready.push(Number(await page.getAttribute("html", "data-ready-ms")));
  t.draw.push(Number(await page.getAttribute("html", "data-draw-ms")));
  // The details and transcripts follow the client script: the page is drawn before they are parsed.
  t.parsed.push((await page.evaluate(`performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd`)) as number);
  const cell = page.locator("#item-table tbody tr td.cell[data-status]").first();
  if (await cell.count()) {
    const o0 = performance.now();
    await cell.click();
    // The item view draws its transcript as it opens, so this is the first open of the details
    // block and of that item's lane of transcripts, parsed and drawn.
    await page.waitForSelector(transcripts ? "dialog#item-detail[open] .chat .turn" : "dialog#item-detail[open] dl.essentials");
    t.open.push(performance.now() - o0);
    await page.locator("dialog#item-detail button.close").click();
    // The first search reads every answer in full, so it parses the details block if no open did.
    t.search.push(
      (await page.evaluate(`(() => {
        const input = document.getElementById("item-search");
        const s0 = performance.now();
        input.value = "/the (tower|city) stands/i";
        input.dispatchEvent(new Event("input"));
        return performance.now() - s0;
      })()`)) as number,
    );
  }
  await page.close();
  if (errors.length) throw new Error(`${file}: page error: ${errors[0]}`);
}

async function main(): Promise<void> {
  const executable = chromiumPath();
  if (!executable) throw new Error("no Chromium (set ARENA_CHROMIUM or install chromium)");
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-report-size-"));
  const total = FRAMEWORKS.length * ITEMS;
  const cases = [
    { name: "floor (no items)", perArena: 0, transcripts: false },
    { name: `${total} items`, perArena: ITEMS / ARENAS.length, transcripts: false },
    { name: `${total} items + transcripts`, perArena: ITEMS / ARENAS.length, transcripts: true },
  ].map((c) => ({ ...c, dir: path.join(root, String(c.perArena) + (c.transcripts ? "t" : "")), file: "", bytes: 0, build: 0, t: { ready: [], draw: [], parsed: [], wall: [], open: [], search: [] } as Timings }));
  const browser = await launchChromium(executable);
  try {
    for (const c of cases) {
      writeRun(c.dir, c.perArena, c.transcripts);
      const t0 = performance.now();
      c.file = await writeRunReport(c.dir, { now: new Date("2026-12-01T00:00:00Z") });
      c.build = performance.now() - t0;
      c.bytes = statSync(c.file).size;
    }
    // Interleaved, so the floor and the large reports see the same machine load.
    for (let i = 0; i < LOADS; i++) for (const c of cases) await loadOnce(browser, c.file, c.transcripts, c.t);
    console.log(`${FRAMEWORKS.length} frameworks × ${ITEMS} items over ${ARENAS.length} arenas; ${LOADS} interleaved loads each, medians (ms); Chromium ${browser.version()}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    console.log("| report | items | bytes | build | ready | of which client draw | whole file parsed | wall | open item | first search |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    const ms = (xs: number[]) => (xs.length ? median(xs).toFixed(0) : "—");
    for (const c of cases) {
      console.log(`| ${c.name} | ${c.perArena * ARENAS.length * FRAMEWORKS.length} | ${c.bytes} | ${c.build.toFixed(0)} | ${ms(c.t.ready)} | ${ms(c.t.draw)} | ${ms(c.t.parsed)} | ${ms(c.t.wall)} | ${ms(c.t.open)} | ${ms(c.t.search)} |`);
    }
  } finally {
    await browser.close();
    if (values.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
