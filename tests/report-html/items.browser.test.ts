/**
 * The item table and the item view in a real headless Chromium, on a 13-framework run with 3
 * repeats: the page fits 1440 px (the table scrolls inside its own region), search reads
 * questions and full answers as text or /regex/, the filter counts are the scorecards', and an
 * item link opens that very cell with its question, expected value and cause first.
 *
 * Skipped (with the reason printed) only when no Chromium is found and ARENA_REQUIRE_BROWSER is unset.
 */
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeReport, writeRunReport } from "../../orchestrator/report/html/write.ts";
import { scorecardRows, type AvailableRow } from "../../orchestrator/report/scorecard.ts";
import { chromiumPath, launchChromium } from "../support/chromium.ts";
import { DEEP_TOKEN, ECHOED_DETAIL, MALFORMED_ARGUMENTS, QUESTIONS, RUN_A, WIDE_FRAMEWORKS, wideRecords, writeWideRuns } from "./items-fixture.ts";

const executable = chromiumPath();
const required = Boolean(process.env.ARENA_REQUIRE_BROWSER);
if (!executable && !required) console.warn("items browser test skipped: no Chromium (set ARENA_CHROMIUM, or ARENA_REQUIRE_BROWSER=1 to fail instead)");

describe.skipIf(!executable && !required)("the item table and item view in headless Chromium", () => {
  let browser: Browser;
  let page: Page;
  let fixture: ReturnType<typeof writeWideRuns>;
  let single: string;
  let combined: string;
  const problems: string[] = [];

  async function open(file: string, hash = ""): Promise<Page> {
    const p = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    p.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    p.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    await p.goto(pathToFileURL(file).href + hash);
    await p.waitForSelector("html[data-ready], html[data-failed]", { timeout: 30_000 });
    expect(await p.getAttribute("html", "data-failed")).toBeNull();
    return p;
  }

  const rowKeys = () => page.locator("#item-table tbody tr").evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-key")));
  const search = async (text: string) => {
    await page.fill("#item-search", text);
    expect(await page.inputValue("#item-search")).toBe(text);
  };

  beforeAll(async () => {
    if (!executable) throw new Error("ARENA_REQUIRE_BROWSER is set but no Chromium is executable");
    fixture = writeWideRuns();
    single = await writeRunReport(fixture.runA, { now: new Date("2026-12-02T09:00:00Z") });
    combined = await writeReport([fixture.runA, fixture.runB], fixture.runsDir, { now: new Date("2026-12-02T09:00:00Z") });
    browser = await launchChromium(executable);
    page = await open(single);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (fixture) rmSync(fixture.root, { recursive: true, force: true });
  });

  it("fits 1440 px with 13 frameworks: the table scrolls inside its region, the page does not", async () => {
    expect(await page.locator("#item-table thead th.cell").count()).toBe(WIDE_FRAMEWORKS.length);
    const widths = (await page.evaluate(`(() => {
      const region = document.querySelector(".table-region");
      return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, region: region.clientWidth, table: region.scrollWidth };
    })()`)) as { page: number; viewport: number; region: number; table: number };
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.table).toBeGreaterThan(widths.region);
    // Repeats folded per item: one row per item, `2/3` where one of three repeats failed.
    expect(await rowKeys()).toEqual(["resilience/q-04", "resilience/q-05", "tool_use/q-01", "tool_use/q-02", "tool_use/q-03"]);
    await expect(page.locator('tr[data-key="tool_use/q-03"] td[data-series="framework_01"] .score').textContent()).resolves.toBe("2/3");
    await expect(page.locator('tr[data-key="tool_use/q-03"] td[data-series="framework_01"] .cause').textContent()).resolves.toBe("icontains: expected substring (ci) 'danube'");
    await expect(page.locator('tr[data-key="tool_use/q-01"] td.input').textContent()).resolves.toBe(QUESTIONS.tool_use!["q-01"]!.input);
  });

  it("searches questions and whole answers as plain text, and as /regex/", async () => {
    await search("river flows");
    expect(await rowKeys()).toEqual(["tool_use/q-03"]);
    // Only the full answer (past the excerpt the cell shows) holds this word.
    await search(DEEP_TOKEN.toUpperCase());
    expect(await rowKeys()).toEqual(["tool_use/q-02"]);
    await search("/^What is \\d+/");
    expect(await rowKeys()).toEqual(["resilience/q-04", "tool_use/q-02"]);
    await search("/rhine|everest/i");
    expect(await rowKeys()).toEqual(["resilience/q-05", "tool_use/q-03"]);
    await search("/(/");
    await expect(page.locator("#item-search-error").textContent()).resolves.toMatch(/not a valid regular expression/);
    expect(await rowKeys()).toHaveLength(5);
    await search("");
    await expect(page.locator("#item-search-error").textContent()).resolves.toBe("");
  });

  it("counts each filter as the scorecards do: Failed includes the errored cells", async () => {
    const rows = wideRecords(RUN_A).flatMap((r) => scorecardRows(r).filter((x): x is AvailableRow => x.available));
    const count = (filter: string) => page.locator(`#item-filters label[data-filter="${filter}"] .filter-count`).textContent();
    await expect(count("failed")).resolves.toBe(String(rows.reduce((a, r) => a + r.items - r.passed, 0)));
    await expect(count("errored")).resolves.toBe(String(rows.reduce((a, r) => a + r.errors, 0)));
    await expect(count("class:adapter")).resolves.toBe("3");
    await expect(count("unserved")).resolves.toBe(String(rows.reduce((a, r) => a + r.not_served, 0)));
    await expect(count("unserved")).resolves.toBe("1");
    await page.check('input[name="item-filter"][value="failed"]');
    expect(await rowKeys()).toEqual(["resilience/q-05", "tool_use/q-03"]);
    // One framework on one arena: exactly its scorecard row.
    await page.selectOption("#arena-filter", "resilience");
    await page.selectOption("#series-filter", String(WIDE_FRAMEWORKS.indexOf("framework_05")));
    const row = scorecardRows(wideRecords(RUN_A).find((r) => r.arena === "resilience")!).find((r) => r.framework === "framework_05") as AvailableRow;
    await expect(count("failed")).resolves.toBe(String(row.items - row.passed));
    await expect(count("passed")).resolves.toBe(String(row.passed));
    await page.selectOption("#arena-filter", "");
    await page.selectOption("#series-filter", "-1");
    await page.check('input[name="item-filter"][value="all"]');
  });

  it("sorts by a framework's column, its failures first", async () => {
    await page.click('#item-table thead button[data-sort="1"]');
    expect((await rowKeys())[0]).toBe("tool_use/q-03");
    await page.click('#item-table thead button[data-sort="item"]');
    expect((await rowKeys())[0]).toBe("resilience/q-04");
  });

  it("opens the cell an item link names, question, expected value and cause first", async () => {
    const linked = await open(single, "#tool_use/q-03/framework_05/3");
    const dialog = linked.locator("dialog#item-detail");
    await expect(dialog.isVisible()).resolves.toBe(true);
    const first = await dialog.evaluate((d) => [...d.children].slice(0, 2).map((c) => c.tagName + (c.className ? `.${c.className}` : "")));
    expect(first).toEqual(["HEADER", "DL.essentials"]);
    const essentials = await dialog.locator("dl.essentials dt").allTextContents();
    expect(essentials).toEqual(["Question", "Expected", "Outcome", "Cause"]);
    await expect(dialog.locator("dd.question").textContent()).resolves.toBe("Which river flows through Vienna?");
    await expect(dialog.locator("dd.expected").textContent()).resolves.toBe('contains "Danube" (any case)');
    await expect(dialog.locator("dd.outcome").textContent()).resolves.toBe("framework_05 · repeat 3 of 3 · failed");
    await expect(dialog.locator("dd.cause").textContent()).resolves.toBe("icontains: expected substring (ci) 'danube'");
    await expect(dialog.locator("pre.answer").textContent()).resolves.toBe("It is the Rhine.");
    // The malformed call as the model sent it, not as the framework sent it back; the violation once.
    await expect(dialog.locator("ul.tool-calls li.malformed code").textContent()).resolves.toBe(`search(${MALFORMED_ARGUMENTS})`);
    await expect(dialog.locator(".chat .tool-call.malformed pre.arguments").first().textContent()).resolves.toBe(MALFORMED_ARGUMENTS);
    await expect(dialog.locator(".chat").textContent()).resolves.toContain("The framework sent the previous reply back with its tool calls changed");
    const violations = await dialog.locator("table.violations tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    expect(violations).toEqual([["tool-output", "1", "2, 3", `${ECHOED_DETAIL}as the model sent it: search(${MALFORMED_ARGUMENTS})`]]);
    await expect(linked.locator('tr[data-key="tool_use/q-03"] td[data-series="framework_05"] .viol').textContent()).resolves.toBe(" ⚑1");
    // An errored cell says what happened once, not "skipped: adapter error" per check.
    await linked.evaluate('location.hash = "#resilience/q-05/framework_05/1"');
    await expect(dialog.locator(".error-box").textContent()).resolves.toContain("adapter gave up: iteration budget exhausted");
    expect(await dialog.innerText()).not.toContain("skipped: adapter error");
    // A cell the provider failed says what the provider did, and that no figure counts it.
    await linked.evaluate('location.hash = "#tool_use/q-01/framework_07/2"');
    await expect(dialog.locator(".error-box.unserved strong").textContent()).resolves.toBe("Not served by the provider: 503");
    await expect(dialog.locator(".error-box.unserved").textContent()).resolves.toContain("counts in no figure");
    await expect(linked.locator('tr[data-key="tool_use/q-01"] td[data-series="framework_07"] .score').textContent()).resolves.toBe("2/2 (+1 not served)");
    await linked.close();
  });

  it("puts an opened item's link in the address, and takes it out on close", async () => {
    await page.click('tr[data-key="tool_use/q-03"] td[data-series="framework_01"]');
    await expect(page.evaluate("location.hash")).resolves.toBe("#tool_use/q-03/framework_01/2");
    await expect(page.locator("dialog#item-detail dd.outcome").textContent()).resolves.toBe("framework_01 · repeat 2 of 3 · failed");
    await page.click('dialog#item-detail button[data-repeat="1"]');
    await expect(page.evaluate("location.hash")).resolves.toBe("#tool_use/q-03/framework_01/1");
    await page.click("dialog#item-detail button.close");
    await expect(page.evaluate("location.hash")).resolves.toBe("#items");
    expect(await page.locator("body").innerText()).not.toMatch(/\b(null|undefined|NaN)\b/);
  });

  it("opens a combined report's run-labelled column from its encoded series id", async () => {
    const other = await open(combined, `#tool_use/q-03/${encodeURIComponent("R2/framework_02")}/1`);
    await expect(other.locator("dialog#item-detail dd.outcome").textContent()).resolves.toBe("framework_02 (R2) · repeat 1 of 3 · passed");
    await other.evaluate('location.hash = "#tool_use/q-03/nobody/1"');
    await expect(other.locator("dialog#item-detail").textContent()).resolves.toContain("This report has no cell tool_use / q-03 / nobody / repeat 1");
    await other.close();
    expect(problems).toEqual([]);
  });
});
