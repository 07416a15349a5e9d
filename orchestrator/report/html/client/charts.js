// Charts, drawn by Observable Plot (inlined with d3 at report-build time) as small multiples: one
// labelled panel per arena, one horizontal bar per framework, named on the axis, its value printed
// at the bar's end and its symbol beside the name (colours.js), so no reader has to match a hue
// to a legend. A black rule is the 95% interval wherever the data carries one.

const METRIC_CHARTS = [
  { key: "promptTokens", title: "Mean prompt tokens per item", unit: "tokens", digits: 0, meaningful: true },
  { key: "completionTokens", title: "Mean completion tokens per item", unit: "tokens", digits: 0 },
  { key: "llmCalls", title: "Mean LLM calls per item", unit: "calls", digits: 2 },
  { key: "latencyS", title: "Mean latency per item", unit: "seconds", digits: 3 },
  { key: "costUsd", title: "Mean estimated cost per item", unit: "USD", digits: 6 },
];

const PANEL_WIDTH = 440;
const ROW_HEIGHT = 20;

function arenasWith(rows) {
  return DATA.arenas.map((a) => a.id).filter((id) => rows.some((r) => r.arena === id));
}

// A panel's frameworks in the report's order: the same row order in every panel and chart.
function seriesIn(rows) {
  return DATA.series.map((s) => s.id).filter((id) => rows.some((r) => r.series === id));
}

function panelOptions(rows, x, marks) {
  const ys = seriesIn(rows);
  return {
    width: PANEL_WIDTH,
    height: 34 + ys.length * ROW_HEIGHT,
    marginLeft: 150,
    marginRight: 16,
    marginTop: 6,
    style: { fontSize: "11px" },
    x: { grid: true, ...x },
    y: { domain: ys, label: null, tickFormat: seriesLabel, tickSize: 0, tickPadding: 18, padding: 0.2 },
    color: colourScale(),
    symbol: symbolScale(),
    marks,
  };
}

// The symbol sits left of the bar, on the name's row: colour and shape together tell frameworks apart.
// One per framework, however many rows (the latency panel has one per item).
function symbolMark(rows) {
  return Plot.dot(seriesIn(rows).map((series) => ({ series })), { y: "series", frameAnchor: "left", dx: -9, symbol: "series", fill: "series", r: SYMBOL_RADIUS, title: (r) => seriesLabel(r.series) });
}

function panels(id, rows, drawPanel) {
  return h(
    "div",
    { className: "panels", "data-panels": id },
    arenasWith(rows).map((arena) => h("figure", { className: "panel", "data-arena": arena }, h("figcaption", {}, arena), drawPanel(rows.filter((r) => r.arena === arena), arena))),
  );
}

function chartBox(id, title, meaningful, figure, note) {
  return h("div", { className: "chart", id: `chart-${id}`, "data-chart": id }, h("h3", {}, title), wiringNote(meaningful), figure, note ? h("p", { className: "note" }, note) : null);
}

// Bars with an interval rule and the value printed past whichever ends further right.
function barPanel(rows, spec) {
  const bounded = rows.filter((r) => r.low !== undefined);
  const reach = Math.max(...rows.map((r) => Math.max(r.value, r.high ?? r.value)), 0);
  return Plot.plot(
    panelOptions(rows, { label: spec.unit, domain: spec.domain || [0, reach * 1.3 || 1], ...(spec.tickFormat ? { tickFormat: spec.tickFormat } : {}), ...(spec.ticks ? { ticks: spec.ticks } : {}) }, [
      Plot.barX(rows, { y: "series", x: "value", fill: "series", title: (r) => `${seriesLabel(r.series)} · ${r.arena}\n${spec.format(r.value)}${r.n !== undefined ? ` (n=${r.n})` : ""}${intervalText(r, spec.format)}` }),
      Plot.ruleY(bounded, { y: "series", x1: "low", x2: "high", stroke: "#111", strokeWidth: 1.5 }),
      Plot.text(rows, { y: "series", x: (r) => Math.max(r.value, r.high ?? r.value), text: (r) => spec.format(r.value), textAnchor: "start", dx: 4, fill: "#222" }),
      ...(spec.reference !== undefined ? [Plot.ruleX([spec.reference], { stroke: "#c00", strokeDasharray: "4 3" })] : []),
      Plot.ruleX([0]),
      symbolMark(rows),
    ]),
  );
}

function metricChart(spec) {
  const rows = DATA.cells
    .filter((c) => c.metrics[spec.key])
    .map((c) => {
      const m = c.metrics[spec.key];
      return { arena: c.arena, series: c.series, value: m.mean, n: m.n, low: m.meanInterval && m.meanInterval.low, high: m.meanInterval && m.meanInterval.high };
    });
  if (rows.length === 0) return null;
  const format = (x) => fmt(x, spec.digits);
  const figure = panels(spec.key, rows, (panelRows) => barPanel(panelRows, { unit: spec.unit, format }));
  return chartBox(spec.key, spec.title, spec.meaningful, figure, rows.some((r) => r.low !== undefined) ? "Rule: bootstrap 95% interval of the mean. Each panel has its own scale." : "Each panel has its own scale.");
}

function passRateChart() {
  const rows = DATA.cells.filter((c) => c.available && c.n > 0).map((c) => ({ arena: c.arena, series: c.series, value: c.passRate, n: c.n, low: c.passInterval && c.passInterval.low, high: c.passInterval && c.passInterval.high }));
  if (rows.length === 0) return null;
  const figure = panels("passRate", rows, (panelRows) => barPanel(panelRows, { unit: "pass rate", format: (x) => pct(x), domain: [0, 1.22], ticks: [0, 0.25, 0.5, 0.75, 1], tickFormat: "%" }));
  return chartBox("passRate", "Pass rate", DATA.mode === "live", figure, rows.some((r) => r.low !== undefined) ? "Rule: 95% interval clustered by item (an item's repeats are one unit)." : null);
}

function overheadChart() {
  const rows = DATA.cells.filter((c) => c.promptOverhead !== undefined).map((c) => ({ arena: c.arena, series: c.series, value: c.promptOverhead }));
  if (rows.length === 0) return null;
  const totals = DATA.overhead.map((o) => `${seriesLabel(o.series)} ${fmt(o.ratio, 2)}×`).join(" · ");
  const figure = panels("overhead", rows, (panelRows) => barPanel(panelRows, { unit: `× ${DATA.baseline}`, format: (x) => `${fmt(x, 2)}×`, reference: 1 }));
  return chartBox("overhead", `Prompt-token overhead vs ${DATA.baseline}`, true, figure, `Mean prompt tokens over the baseline's on the same arena (dashed: 1×). Over all arenas both ran (Σ/Σ): ${totals || "—"}.`);
}

function latencyChart() {
  const samples = [];
  for (const c of DATA.cells) for (const v of c.latencySamples) samples.push({ arena: c.arena, series: c.series, latency: v });
  if (samples.length === 0) return null;
  const figure = panels("latency", samples, (panelRows) =>
    Plot.plot(panelOptions(panelRows, { label: "seconds" }, [Plot.boxX(panelRows, { y: "series", x: "latency", fill: "series", fillOpacity: 0.6 }), symbolMark(panelRows)])),
  );
  return chartBox("latency", "Latency distribution per item", false, figure, "Box: quartiles; whiskers: 1.5 IQR; dots: items beyond.");
}

function renderCharts() {
  const boxes = [passRateChart(), renderScatter(), ...METRIC_CHARTS.map(metricChart), overheadChart(), latencyChart()].filter(Boolean);
  return section("charts", "Charts", boxes.length ? [seriesLegend(), boxes] : h("p", {}, "No items to chart."));
}
