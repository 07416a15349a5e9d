/**
 * `arena report A B`'s run-vs-run view in a real headless Chromium, opened from file://: a mock
 * run A (the fixture) against a live run B in which vanilla broke t-01 and fancy fixed t-02. The
 * view must show fixed / broke / unchanged per cell with the p value, label each run with its own
 * mode (no single mock note over the live run), and link each item into each run's column.
 *
 * Skipped (with the reason printed) only when no Chromium is found and ARENA_REQUIRE_BROWSER is unset.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport } from "../../orchestrator/report/html/write.ts";
import { REPORT_STATISTICS } from "../../orchestrator/report/html/statistics.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { chromiumPath, launchChromium } from "../support/chromium.ts";
import { fixtureManifest, fixtureRecords, writeFixtureRun } from "./fixture.ts";

const executable = chromiumPath();
const required = Boolean(process.env.ARENA_REQUIRE_BROWSER);
if (!executable && !required) console.warn("compare browser test skipped: no Chromium (set ARENA_CHROMIUM, or ARENA_REQUIRE_BROWSER=1 to fail instead)");

const LIVE_ID = "20261201T090000000Z-def456";

/** Run B: the fixture as a live run, vanilla failing t-01 and fancy passing t-02 on tool_use. */
function writeLiveRun(runsDir: string): string {
  const dir = path.join(runsDir, LIVE_ID);
  mkdirSync(path.join(dir, "records"), { recursive: true });
  writeFileSync(path.join(dir, "run.json"), JSON.stringify({ ...fixtureManifest(), run_id: LIVE_ID, mode: "live" }, null, 2));
  for (const r of fixtureRecords()) {
    const changed: RunRecord = {
      ...r,
      run_id: LIVE_ID,
      mode: "live",
      frameworks: r.frameworks.map((lane) => ({
        ...lane,
        items: lane.items.map((i) => {
          if (r.arena !== "tool_use" || i.item_id === "t-03") return i;
          if (lane.framework === "vanilla" && i.item_id === "t-01") return { ...i, passed: false, prompt_tokens: i.prompt_tokens * 2 };
          if (lane.framework === "fancy" && i.item_id === "t-02") return { ...i, passed: true, checks: i.checks.map((c) => ({ ...c, ok: true })) };
          return i;
        }),
      })),
    };
    writeFileSync(path.join(dir, "records", `${r.arena}.json`), JSON.stringify(changed, null, 2));
  }
  return dir;
}

describe.skipIf(!executable && !required)("the run-vs-run view in headless Chromium", () => {
  let browser: Browser;
  let page: Page;
  let root: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!executable) throw new Error("ARENA_REQUIRE_BROWSER is set but no Chromium is executable");
    const fixture = writeFixtureRun();
    root = fixture.root;
    const live = writeLiveRun(fixture.runsDir);
    const file = await writeReport([fixture.runDir, live], fixture.runsDir, { statistics: REPORT_STATISTICS, now: new Date("2026-12-01T10:00:00Z") });
    browser = await launchChromium(executable);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("html[data-ready], html[data-failed]", { timeout: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("draws with no error, and labels each run with its own mode, never one mock note over both", async () => {
    expect(await page.getAttribute("html", "data-failed")).toBeNull();
    expect(problems).toEqual([]);
    const labels = await page.locator("#compare .comparison h3 .mode-label").allTextContents();
    expect(labels).toEqual(["R1 mock", "R2 live"]);
    await expect(page.locator("header .mode").textContent()).resolves.toContain("mode: R1 mock · R2 live");
    const banner = await page.locator("#mode-banner").textContent();
    expect(banner).toContain("R1 mock · R2 live");
    expect(banner).not.toMatch(/^Mock mode/);
    await expect(page.locator("#compare .comparison .wiring").textContent()).resolves.toBe("R1 is a mock run: a change there shows wiring, not a framework's quality.");
  });

  it("shows fixed, broke and unchanged per cell with the paired p and the deltas", async () => {
    const rows = await page.locator("#compare table.compare tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    const row = (arena: string, framework: string) => rows.find((r) => r[0] === arena && r[1] === framework)!;
    // arena, framework, fixed, broke, unchanged, only A, only B, not served, p, Δ prompt tokens…
    expect(row("tool_use", "vanilla").slice(2, 10)).toEqual(["0", "1", "2", "0", "0", "0", "1.000", "+33.3 (+16.7%)"]);
    expect(row("tool_use", "fancy").slice(2, 9)).toEqual(["1", "0", "2", "0", "0", "0", "1.000"]);
    expect(row("resilience", "vanilla").slice(2, 5)).toEqual(["0", "0", "3"]);
    expect(await page.locator("#compare td.broke.bad").count()).toBe(1);
    expect(await page.locator("#compare td.fixed.ok").count()).toBe(1);
  });

  it("names the fixed and broken items, with a link to the item in each run's column", async () => {
    const broke = page.locator('#compare details[data-lane="tool_use/vanilla"] li.change-broke');
    await expect(broke.textContent()).resolves.toContain("t-01 1/1 → 0/1");
    const links = await broke.locator("a.item-link").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
    expect(links).toEqual([
      ["in R1", "#tool_use/t-01/R1%2Fvanilla/1"],
      ["in R2", "#tool_use/t-01/R2%2Fvanilla/1"],
    ]);
    await expect(page.locator('#compare details[data-lane="tool_use/fancy"] li.change-fixed').textContent()).resolves.toContain("t-02 0/1 → 1/1");
    // Unchanged items are drawn when their list is opened.
    const unchanged = page.locator('#compare details[data-lane="tool_use/vanilla"] details.change-unchanged');
    expect(await unchanged.locator("li").count()).toBe(0);
    await unchanged.locator("summary").click();
    expect(await unchanged.locator("li").count()).toBe(2);
  });

  it("a run-vs-run link opens that item in that run's column", async () => {
    const broke = page.locator('#compare details[data-lane="tool_use/vanilla"] li.change-broke');
    await broke.locator("a.item-link", { hasText: "in R2" }).click();
    const dialog = page.locator("dialog#item-detail");
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(dialog.locator("dd.outcome").textContent()).resolves.toBe("vanilla (R2) · repeat 1 of 1 · failed");
    expect(await page.evaluate("location.hash")).toBe("#tool_use/t-01/R2%2Fvanilla/1");
    await page.evaluate('document.querySelector("dialog#item-detail").close()');
  });
});
