/**
 * The report's first screen in a real headless Chromium: the leaderboard drawn in rank order with
 * ties shown as ties, the paired test stated only where it is significant, the banner, intervals
 * that never wrap, and — with 30 synthetic frameworks — a distinct (colour, symbol) pair for each
 * framework in the rendered SVG, the same in every chart.
 *
 * Skipped as browser.test.ts is: only when no Chromium is found and ARENA_REQUIRE_BROWSER is unset.
 */
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPORT_STATISTICS } from "../../orchestrator/report/html/statistics.ts";
import { writeRunReport } from "../../orchestrator/report/html/write.ts";
import { chromiumPath, launchChromium } from "../support/chromium.ts";
import { manyFrameworkRecords, rankedRecords, syntheticName, writeBoardRun } from "./board-fixture.ts";

const executable = chromiumPath();
const required = Boolean(process.env.ARENA_REQUIRE_BROWSER);
const FRAMEWORKS = 30;

describe.skipIf(!executable && !required)("the leaderboard in headless Chromium", () => {
  let browser: Browser;
  const roots: string[] = [];
  const problems: string[] = [];

  async function open(records: Parameters<typeof writeBoardRun>[0]): Promise<Page> {
    const run = writeBoardRun(records);
    roots.push(run.root);
    const file = await writeRunReport(run.runDir, { statistics: REPORT_STATISTICS, now: new Date("2026-12-01T09:00:00Z") });
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("html[data-ready], html[data-failed]", { timeout: 30_000 });
    expect(await page.getAttribute("html", "data-failed")).toBeNull();
    return page;
  }

  const boardRows = (page: Page, selector: string) =>
    page.locator(`${selector} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => (td.textContent ?? "").trim())));

  beforeAll(async () => {
    if (!executable) throw new Error(`ARENA_REQUIRE_BROWSER is set but no Chromium is executable at ${process.env.ARENA_CHROMIUM || "/usr/bin/chromium"}`);
    browser = await launchChromium(executable);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  describe("a run with ties, a provider fault and one significant difference", () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(rankedRecords());
    }, 60_000);

    it("ranks each arena, ties shared, the provider's failures in their own column", async () => {
      const rows = await boardRows(page, 'table.board[data-arena="tool_use"]');
      expect(rows.map((r) => r.slice(0, 3))).toEqual([
        ["1", "vanilla", "100% 4/4"],
        ["=2", "alpha", "75% 3/4"],
        ["=2", "beta", "75% 3/4"],
        ["4", "gamma", "33% 1/3"],
      ]);
      // Rank, framework, rate, interval, then the not-served column.
      expect(rows.map((r) => r[4])).toEqual(["0", "0", "0", "1"]);
      const rag = await boardRows(page, 'table.board[data-arena="rag"]');
      expect(rag.map((r) => r.slice(0, 2))).toEqual([["=1", "vanilla"], ["=1", "alpha"], ["3", "gamma"], ["—", "beta"]]);
      expect(rag[3]![2]).toBe("not installed");
    });

    it("states the paired test only where p is below 0.05, the rest collapsed in the detail view", async () => {
      const rag = await boardRows(page, 'table.board[data-arena="rag"]');
      expect(rag[2]!.at(-1)).toBe("worse than vanilla: +0 −6 items, p 0.031");
      expect(rag[1]!.at(-1)).toBe("");
      const tool = await boardRows(page, 'table.board[data-arena="tool_use"]');
      expect(tool.map((r) => r.at(-1))).toEqual(["", "", "", ""]);
      const detail = page.locator("details#paired-detail");
      expect(await detail.getAttribute("open")).toBeNull();
      await expect(detail.locator("summary").textContent()).resolves.toBe("Paired tests vs vanilla: 1 of 5 below p 0.05 (shown in the rows above)");
      expect(await detail.locator("tbody tr").count()).toBe(5);
      expect(await page.locator("#leaderboard").innerText()).not.toMatch(/p 1\.000/);
    });

    it("has the overall row per framework: mean of arena rates and its spread", async () => {
      const rows = await boardRows(page, "#overall-board");
      expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4]])).toEqual([
        ["1", "vanilla", "100%", "100%–100%", "2"],
        ["2", "alpha", "88%", "75%–100%", "2"],
        ["3", "gamma", "17%", "0%–33%", "2"],
        ["—", "beta", "75%", "75%–75%", "1"],
      ]);
      expect(rows[2]![5]).toBe("0 better, 1 worse");
    });

    it("draws each interval as a bar and never wraps its text", async () => {
      const intervals = await page.locator("#leaderboard td.interval").evaluateAll((tds) =>
        tds.map((td) => ({ bar: td.querySelector(".track .range") !== null, lines: td.querySelector(".interval-text")?.getClientRects().length ?? 0 })),
      );
      expect(intervals.length).toBeGreaterThanOrEqual(7 + 4);
      expect(intervals.every((i) => i.bar && i.lines === 1)).toBe(true);
    });

    it("opens with the banner: a mock wiring check, and the cells the provider failed", async () => {
      const notices = await page.locator("#banner p.notice").evaluateAll((ps) => ps.map((p) => [p.getAttribute("data-kind"), p.textContent]));
      expect(notices.map((n) => n[0])).toEqual(["mock", "provider-faults"]);
      expect(notices[0]![1]).toMatch(/^Mock mode — a wiring check, not a leaderboard of model quality/);
      expect(notices[1]![1]).toMatch(/^Provider faults: 1 cell in 1 framework × arena not served/);
      expect(problems).toEqual([]);
    });
  });

  describe(`${FRAMEWORKS} frameworks`, () => {
    let page: Page;
    beforeAll(async () => {
      page = await open(manyFrameworkRecords(FRAMEWORKS));
    }, 60_000);

    it("ranks them all, ties shared", async () => {
      const rows = await boardRows(page, 'table.board[data-arena="tool_use"]');
      expect(rows).toHaveLength(FRAMEWORKS);
      // Framework k passes k mod 5 of 4 items (at most 4): six frameworks each at 4, 3, 2, 1 and 0 items.
      expect(rows.map((r) => r[0])).toEqual([1, 7, 13, 19, 25].flatMap((rank) => Array(6).fill(`=${rank}`)));
      expect(rows[0]![1]).toBe(syntheticName(4));
    });

    it("gives every framework a distinct (colour, symbol) pair, the same in every chart", async () => {
      // Each chart's symbol marks: a path per framework, titled with its name; the path's shape is its symbol.
      const marks = await page.locator(".chart").evaluateAll((charts) =>
        charts.map((chart) => ({
          chart: chart.id,
          dots: [...chart.querySelectorAll('g[aria-label="dot"] path')].map((p) => ({ name: p.querySelector("title")?.textContent?.split(" · ")[0] ?? "", fill: p.getAttribute("fill"), shape: p.getAttribute("d") })),
        })),
      );
      const passRate = marks.find((m) => m.chart === "chart-passRate")!;
      expect(passRate.dots).toHaveLength(FRAMEWORKS);
      expect(new Set(passRate.dots.map((d) => d.name)).size).toBe(FRAMEWORKS);
      expect(new Set(passRate.dots.map((d) => `${d.fill} ${d.shape}`)).size).toBe(FRAMEWORKS);
      const identity = new Map(passRate.dots.map((d) => [d.name, `${d.fill} ${d.shape}`]));
      const others = marks.filter((m) => m.chart !== "chart-passRate" && m.dots.length > 0);
      expect(others.map((m) => m.chart)).toEqual(expect.arrayContaining(["chart-scatter", "chart-promptTokens", "chart-latency"]));
      for (const m of others) for (const d of m.dots) expect(`${d.fill} ${d.shape}`, `${m.chart}: ${d.name}`).toBe(identity.get(d.name));
      // The bars are filled with the same colour as the framework's symbol.
      const barFills = await page.locator('#chart-passRate g[aria-label="bar"] rect').evaluateAll((rects) => rects.map((r) => r.getAttribute("fill")));
      expect(new Set(barFills)).toEqual(new Set(passRate.dots.map((d) => d.fill)));
    });

    it("prints each bar's value and labels each facet", async () => {
      const texts = await page.locator('#chart-passRate g[aria-label="text"] text').allTextContents();
      expect(texts).toHaveLength(FRAMEWORKS);
      expect(texts.every((t) => /^\d+%$/.test(t))).toBe(true);
      await expect(page.locator('#chart-passRate figure.panel[data-arena="tool_use"] figcaption').textContent()).resolves.toBe("tool_use");
      expect(problems).toEqual([]);
    });
  });
});
