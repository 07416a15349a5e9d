/**
 * One self-contained HTML file: the data as JSON in `<script type="application/json">` blocks,
 * the chart libraries and the client script inlined. Nothing is fetched when the page opens, so
 * the file can be mailed, archived or opened from `file://`.
 *
 * The data is split in three kinds of block: what the page draws at load, the item details (read
 * on the first opened item or search) and one block of transcripts per framework × arena (read when
 * one of its items is opened), so a large run's load time is the table's, not its transcripts'.
 */
import type { Assets } from "./assets.ts";
import type { ReportData } from "./types.ts";

/**
 * JSON that can sit inside a <script> element: `<` is the only character that can end the element
 * (`</script`) or open a comment state (`<!--`), and `\u003c` means the same to JSON.parse.
 * U+2028/2029 are valid in JSON strings and JavaScript alike; escaped anyway for older readers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function jsonBlock(id: string, value: unknown): string {
  return `<script type="application/json" id="${escapeHtml(id)}">${scriptSafeJson(value)}</script>`;
}

export function reportTitle(data: ReportData): string {
  return data.runs.length === 1 ? `agentic-arena report — ${data.runs[0]!.runId}` : `agentic-arena report — ${data.runs.length} runs`;
}

export function renderReportHtml(data: ReportData, assets: Assets): string {
  const { details, transcripts, ...main } = data;
  const transcriptBlocks = transcripts.map((lane, i) => jsonBlock(`transcripts-${i}`, lane));
  const libraries = assets.libraries.map((l) => `${l.name} ${l.version}`).join(", ");
  // The client files share one function scope; CLIENT_START, DATA and CHART_LIBRARIES are its only globals.
  const client = [
    "(function () {",
    '"use strict";',
    "const CLIENT_START = performance.now();",
    'const DATA = JSON.parse(document.getElementById("report-data").textContent);',
    `const CHART_LIBRARIES = ${scriptSafeJson(libraries)};`,
    assets.client,
    "})();",
  ].join("\n");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // No network at all: a report that tried to fetch something would fail here, visibly.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${escapeHtml(reportTitle(data))}</title>`,
    `<style>${assets.css}</style>`,
    "</head>",
    "<body>",
    `<div id="app"><noscript>This report draws itself with JavaScript; the data is in the page's JSON blocks.</noscript></div>`,
    jsonBlock("report-data", main),
    ...assets.libraries.map((l) => `<script>${l.code}</script>`),
    `<script>${client}</script>`,
    // After the script: the page is drawn while the parser is still reading these (most of a large
    // report's bytes); the client waits for the end of parsing before it reads one (whenParsed).
    jsonBlock("report-details", details),
    ...transcriptBlocks,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
