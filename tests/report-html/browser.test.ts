/**
 * The report in a real headless Chromium, opened from file:// as a reader would: it must draw
 * without a console error or a network request, its charts must have marks, filtering must
 * change the rows, and an opened item must show its check detail and transcript (the item table
 * and view in depth: items.browser.test.ts).
 *
 * Skipped (with the reason printed) only when no Chromium is found and ARENA_REQUIRE_BROWSER is
 * unset; CI sets it wherever it could install Chromium, so there a missing browser fails.
 */
import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeRunReport } from "../../orchestrator/report/html/write.ts";
import type { ReportStatistics } from "../../orchestrator/report/html/types.ts";
import { chromiumPath, launchChromium } from "../support/chromium.ts";
import { ERROR_TEXT, FANCY_DECLARATION, FAIL_DETAIL, HOSTILE_ANSWER, STREAMED_TEXT, writeFixtureRun } from "./fixture.ts";
import { pairedItemTest } from "../../orchestrator/stats/index.ts";

const OUTPUT = path.join(import.meta.dirname, ".output");
const executable = chromiumPath();
const required = Boolean(process.env.ARENA_REQUIRE_BROWSER);
if (!executable && !required) {
  console.warn(`browser test skipped: no Chromium at ${process.env.ARENA_CHROMIUM || "/usr/bin/chromium"} (set ARENA_CHROMIUM, or ARENA_REQUIRE_BROWSER=1 to fail instead)`);
}

/** Intervals the test can recognise, so it can see them drawn. */
const intervals: ReportStatistics = {
  clusteredPassInterval: (items) => {
    const rate = items.reduce((a, i) => a + i.passes / i.runs, 0) / items.length;
    return { low: Math.max(0, rate - 0.2), high: Math.min(1, rate + 0.2) };
  },
  bootstrapMeanInterval: (values) => {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    return { mean, low: mean * 0.9, high: mean * 1.1 };
  },
  pairedItemTest,
};

describe.skipIf(!executable && !required)("the report in headless Chromium", () => {
  let browser: Browser;
  let page: Page;
  let root: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!executable) throw new Error(`ARENA_REQUIRE_BROWSER is set but no Chromium is executable at ${process.env.ARENA_CHROMIUM || "/usr/bin/chromium"}`);
    const fixture = writeFixtureRun();
    root = fixture.root;
    const file = await writeRunReport(fixture.runDir, { statistics: intervals, now: new Date("2026-12-01T09:00:00Z") });
    browser = await launchChromium(executable);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("request", (r) => {
      if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) problems.push(`request: ${r.url()}`);
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("html[data-ready], html[data-failed]", { timeout: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("draws the page with no console error, page error or network request", async () => {
    expect(await page.getAttribute("html", "data-failed")).toBeNull();
    expect(await page.getAttribute("html", "data-ready")).toBe("true");
    expect(problems).toEqual([]);
    await expect(page.locator("#mode-banner").textContent()).resolves.toMatch(/only the resilience table and the prompt-size comparisons .* are meaningful/i);
  });

  it("renders every chart with marks, and the intervals as rules", async () => {
    const charts = await page.locator(".chart").evaluateAll((els) =>
      els.map((el) => ({
        id: el.id,
        svgs: el.querySelectorAll("svg").length,
        bars: el.querySelectorAll('g[aria-label="bar"] rect').length,
        rules: el.querySelectorAll('g[aria-label="rule"] line').length,
      })),
    );
    const byId = Object.fromEntries(charts.map((c) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual(
      ["chart-completionTokens", "chart-costUsd", "chart-latency", "chart-latencyS", "chart-llmCalls", "chart-overhead", "chart-passRate", "chart-promptTokens", "chart-scatter"].sort(),
    );
    // 2 frameworks × 3 arenas = 6 lanes: one bar each, and one interval rule each.
    for (const id of ["chart-passRate", "chart-promptTokens", "chart-completionTokens", "chart-llmCalls", "chart-latencyS", "chart-costUsd"]) {
      expect(byId[id]!.bars, id).toBe(6);
      expect(byId[id]!.rules, id).toBeGreaterThanOrEqual(6);
    }
    expect(byId["chart-overhead"]!.bars).toBe(6);
    // The boxplot is drawn from bars (the boxes) and rules (the whiskers).
    expect(byId["chart-latency"]!.bars).toBe(6);
    expect(charts.every((c) => c.svgs >= 1)).toBe(true);
    const fancy = page.locator('table.board[data-arena="tool_use"] tr[data-series="fancy"]');
    await expect(fancy.locator("td.rate").textContent()).resolves.toBe("33% 1/3");
    await expect(fancy.locator("td.interval").textContent()).resolves.toBe("13%–53%");
    // fancy on tool_use failed two cells vanilla passed, and passed none it failed: exact p = 2 × 0.5²,
    // not significant, so only in the collapsed detail view.
    await expect(page.locator("#paired-detail tbody").textContent()).resolves.toContain("tool_usefancy+0 −2 =130.500");
  });

  it("shows the resilience, pause and provenance tables", async () => {
    await expect(page.locator("#resilience").textContent()).resolves.toContain("r-02");
    await expect(page.locator("#pause").textContent()).resolves.toContain("400 → 600");
    const provenance = await page.locator("#provenance").textContent();
    expect(provenance).toContain("0123456789abcdef0123456789abcdef01234567");
    expect(provenance).toContain("sandbox, network sealed (bubblewrap 0.8.0)");
  });

  it("lists each framework's declared wire departures, and says which hold the exact rules", async () => {
    const rows = await page.locator("#declarations + p + table tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(rows).toContainEqual(["fancy", FANCY_DECLARATION.kind, FANCY_DECLARATION.what, FANCY_DECLARATION.why]);
    expect(rows).toContainEqual(["vanilla", "none", "holds the exact rules", "—"]);
  });

  it("filters the item table to failures (errors included, as the scorecards count them), errors and differences", async () => {
    const rows = () => page.locator("#item-table tbody tr").count();
    expect(await rows()).toBe(7);
    await page.check('input[name="item-filter"][value="failed"]');
    expect(await rows()).toBe(4);
    const failed = await page.locator("#item-table tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key")));
    expect(failed).toEqual(["durable_state/d-01", "resilience/r-02", "tool_use/t-02", "tool_use/t-03"]);
    await page.check('input[name="item-filter"][value="errored"]');
    expect(await rows()).toBe(1);
    await page.check('input[name="item-filter"][value="differ"]');
    expect(await rows()).toBe(4);
    await page.check('input[name="item-filter"][value="violations"]');
    expect(await rows()).toBe(1);
    await page.check('input[name="item-filter"][value="all"]');
    expect(await rows()).toBe(7);
  });

  it("opens an item: its check detail, answer as text, error and transcript as chat turns", async () => {
    await page.click('tr[data-key="tool_use/t-02"] td[data-series="fancy"]');
    const dialog = page.locator("dialog#item-detail");
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(dialog.textContent()).resolves.toContain(FAIL_DETAIL);
    await expect(dialog.locator("pre.answer").textContent()).resolves.toBe(HOSTILE_ANSWER);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    const transcript = await dialog.locator(".chat").textContent();
    expect(transcript).toContain('"expression": "2 + 2"');
    expect(transcript).toContain(STREAMED_TEXT);
    expect(transcript).toContain("served 120 prompt + 6 completion tokens");
    expect(transcript).toContain("tools offered: search, calculator");
    expect(await dialog.locator(".chat .turn.role-system").count()).toBe(1);
    expect(await dialog.locator(".chat .turn.role-tool").count()).toBe(1);
    // The raw JSON of an exchange is one click away: the request as sent, system prompt and tools in place.
    await dialog.locator(".chat button.raw-toggle").first().click();
    await expect(dialog.locator(".chat pre.raw").first().textContent()).resolves.toContain('"content": "You answer questions with the help of two tools."');
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: path.join(OUTPUT, "item.png") });
    await dialog.locator("button.close").click();
    await page.click('tr[data-key="tool_use/t-03"] td[data-series="fancy"]');
    await expect(dialog.locator(".error-box").textContent()).resolves.toContain(ERROR_TEXT);
    await dialog.locator("button.close").click();
    // An item only one framework ran: one framework to switch to, and no gap printed as text.
    await page.click('tr[data-key="resilience/r-03"] td[data-series="vanilla"]');
    await expect(dialog.locator("button.switch[data-series]").count()).resolves.toBe(1);
    expect(await dialog.innerText()).not.toMatch(/\b(null|undefined|NaN)\b/);
    await dialog.locator("button.close").click();
    // The fixture's error text says "undefined" itself, and the table prints it as fancy's cause.
    expect((await page.locator("body").innerText()).replaceAll(ERROR_TEXT, "")).not.toMatch(/\b(null|undefined|NaN)\b/);
    expect(problems).toEqual([]);
  });

  it("draws a live run without the mock banner or wiring notes", async () => {
    const live = writeFixtureRun(undefined, "live");
    try {
      const file = await writeRunReport(live.runDir);
      const other = await browser.newPage();
      other.on("pageerror", (e) => problems.push(`page error (live): ${e.message}`));
      await other.goto(pathToFileURL(file).href);
      await other.waitForSelector("html[data-ready], html[data-failed]", { timeout: 30_000 });
      expect(await other.getAttribute("html", "data-failed")).toBeNull();
      await expect(other.locator("#mode-banner").count()).resolves.toBe(0);
      await expect(other.locator(".wiring").count()).resolves.toBe(0);
      expect((await other.locator("body").innerText()).replaceAll(ERROR_TEXT, "")).not.toMatch(/\b(null|undefined|NaN)\b/);
      await other.close();
      expect(problems).toEqual([]);
    } finally {
      rmSync(live.root, { recursive: true, force: true });
    }
  });

  it("saves a screenshot of the whole page", async () => {
    mkdirSync(OUTPUT, { recursive: true });
    const file = path.join(OUTPUT, "report.png");
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});
