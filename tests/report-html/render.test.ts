import { describe, expect, it } from "vitest";
import { AssetError, checkInlinable, loadAssets } from "../../orchestrator/report/html/assets.ts";
import { buildReportData } from "../../orchestrator/report/html/data.ts";
import { escapeHtml, renderReportHtml, scriptSafeJson } from "../../orchestrator/report/html/render.ts";
import { fixtureManifest, fixtureRecords, fixtureTranscript, HOSTILE_ANSWER, RUN_ID } from "./fixture.ts";

const data = buildReportData([{ runId: RUN_ID, manifest: fixtureManifest(), records: fixtureRecords(), transcripts: [fixtureTranscript()] }], {
  generatedAt: "2026-12-01T09:00:00.000Z",
});
const html = renderReportHtml(data, loadAssets());

/** The text of the `<script type="application/json" id=…>` block: up to the first `</script`. */
function block(id: string): string {
  const open = `<script type="application/json" id="${id}">`;
  const start = html.indexOf(open);
  if (start < 0) throw new Error(`no block ${id}`);
  const end = html.indexOf("</script", start + open.length);
  return html.slice(start + open.length, end);
}

describe("scriptSafeJson", () => {
  it("cannot end its script element or open a comment, and parses back to the same value", () => {
    const value = { a: "</script><script>alert(1)</script>", b: "<!-- x -->", c: "line\u2028sep\u2029para", d: "</SCRIPT" };
    const text = scriptSafeJson(value);
    expect(text).not.toMatch(/<\/script|<!--/i);
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it("escapes HTML text for the title", () => {
    expect(escapeHtml(`<a href="x">&</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
  });
});

describe("renderReportHtml", () => {
  it("embeds the data in three kinds of JSON block that parse back to the report data", () => {
    const { details, transcripts, ...main } = data;
    expect(JSON.parse(block("report-data"))).toStrictEqual(main);
    expect(JSON.parse(block("report-details"))).toStrictEqual(details);
    // One block per lane with transcripts: fancy × tool_use only.
    expect(JSON.parse(block("transcripts-0"))).toStrictEqual(transcripts[0]);
    expect(html).not.toContain('id="transcripts-1"');
  });

  it("keeps a hostile answer inert: its </script> never appears raw in the page", () => {
    expect(block("report-details")).toContain("Lyon \\u003c/script>");
    expect(html).not.toContain(HOSTILE_ANSWER);
    expect(html).not.toContain("window.__pwned = 1</script>");
  });

  it("is self-contained: every script inline, no stylesheet links, a CSP that forbids fetching", () => {
    expect(html).not.toMatch(/<script[^>]*\bsrc=/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).toContain(`content="default-src 'none'`);
    for (const lib of loadAssets().libraries) expect(html).toContain(lib.code);
    expect(loadAssets().libraries.map((l) => l.name)).toEqual(["d3", "@observablehq/plot"]);
    expect(html.startsWith("<!doctype html>")).toBe(true);
  });

  it("titles the page with the run", () => {
    expect(html).toContain(`<title>agentic-arena report — ${RUN_ID}</title>`);
  });
});

describe("checkInlinable", () => {
  it("refuses code that would end its script element, open a comment, or be changed by redaction", () => {
    expect(() => checkInlinable("x", 'var s = "</script>";')).toThrow(AssetError);
    expect(() => checkInlinable("x", "var s = '<!--';")).toThrow(AssetError);
    expect(() => checkInlinable("x", 'var k = "sk-abcdefghijklmnopqrstuvwx";')).toThrow(/redaction/);
    expect(checkInlinable("x", "var ok = 1;")).toBe("var ok = 1;");
  });
});
