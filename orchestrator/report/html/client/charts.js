// Charts, drawn by Observable Plot (inlined with d3 at report-build time). One facet per arena,
// one bar per framework; a black rule is the 95% interval wherever the data carries one.

const PALETTE = ["#4269d0", "#efb118", "#ff725c", "#6cc5b0", "#3ca951", "#ff8ab7", "#a463f2", "#97bbf5", "#9c6b4e", "#9498a0"];

const METRIC_CHARTS = [
  { key: "promptTokens", title: "Mean prompt tokens per item", unit: "tokens", digits: 1, meaningful: true },
  { key: "completionTokens", title: "Mean completion tokens per item", unit: "tokens", digits: 1 },
  { key: "llmCalls", title: "Mean LLM calls per item", unit: "calls", digits: 2 },
  { key: "latencyS", title: "Mean latency per item", unit: "seconds", digits: 3 },
  { key: "costUsd", title: "Mean estimated cost per item", unit: "USD", digits: 6 },
];

function seriesIds() {
  return DATA.series.map((s) => s.id);
}

function baseOptions(height) {
  return {
    width: Math.max(640, Math.min(1400, document.documentElement.clientWidth - 64)),
    height,
    marginBottom: 24,
    marginLeft: 64,
    style: { fontSize: "11px" },
    fx: { label: null, domain: DATA.arenas.map((a) => a.id).filter((a) => DATA.cells.some((c) => c.arena === a && c.n > 0)) },
    x: { axis: null, domain: seriesIds(), padding: 0.15 },
    color: { domain: seriesIds(), range: PALETTE, legend: true, tickFormat: seriesLabel },
  };
}

function chartBox(id, title, meaningful, figure, note) {
  return h("div", { className: "chart", id: `chart-${id}`, "data-chart": id }, h("h3", {}, title), wiringNote(meaningful), figure, note ? h("p", { className: "note" }, note) : null);
}

function metricChart(spec) {
  const rows = DATA.cells
    .filter((c) => c.metrics[spec.key])
    .map((c) => {
      const m = c.metrics[spec.key];
      return { arena: c.arena, series: c.series, mean: m.mean, n: m.n, low: m.meanInterval && m.meanInterval.low, high: m.meanInterval && m.meanInterval.high };
    });
  if (rows.length === 0) return null;
  const bounded = rows.filter((r) => r.low !== undefined);
  const figure = Plot.plot({
    ...baseOptions(260),
    y: { grid: true, label: spec.unit },
    marks: [
      Plot.barY(rows, { fx: "arena", x: "series", y: "mean", fill: "series", title: (r) => `${seriesLabel(r.series)} · ${r.arena}\n${fmt(r.mean, spec.digits)} ${spec.unit} (n=${r.n})${intervalText(r, (x) => fmt(x, spec.digits))}` }),
      Plot.ruleX(bounded, { fx: "arena", x: "series", y1: "low", y2: "high", stroke: "#111", strokeWidth: 1.5 }),
      Plot.ruleY([0]),
    ],
  });
  return chartBox(spec.key, spec.title, spec.meaningful, figure, bounded.length ? "Rule: bootstrap 95% interval of the mean." : null);
}

function passRateChart() {
  const rows = DATA.cells.filter((c) => c.available && c.n > 0).map((c) => ({ arena: c.arena, series: c.series, rate: c.passRate, low: c.passInterval && c.passInterval.low, high: c.passInterval && c.passInterval.high }));
  if (rows.length === 0) return null;
  const bounded = rows.filter((r) => r.low !== undefined);
  const figure = Plot.plot({
    ...baseOptions(220),
    y: { grid: true, domain: [0, 1], tickFormat: "%", label: "pass rate" },
    marks: [
      Plot.barY(rows, { fx: "arena", x: "series", y: "rate", fill: "series", title: (r) => `${seriesLabel(r.series)} · ${r.arena}\n${pct(r.rate)}${intervalText(r, (x) => pct(x))}` }),
      Plot.ruleX(bounded, { fx: "arena", x: "series", y1: "low", y2: "high", stroke: "#111", strokeWidth: 1.5 }),
    ],
  });
  return chartBox("passRate", "Pass rate", DATA.mode === "live", figure, bounded.length ? "Rule: Wilson 95% interval." : null);
}

function overheadChart() {
  const rows = DATA.cells.filter((c) => c.promptOverhead !== undefined).map((c) => ({ arena: c.arena, series: c.series, ratio: c.promptOverhead }));
  if (rows.length === 0) return null;
  const totals = DATA.overhead.map((o) => `${seriesLabel(o.series)} ${fmt(o.ratio, 2)}×`).join(" · ");
  const figure = Plot.plot({
    ...baseOptions(220),
    y: { grid: true, label: `× ${DATA.baseline}` },
    marks: [
      Plot.barY(rows, { fx: "arena", x: "series", y: "ratio", fill: "series", title: (r) => `${seriesLabel(r.series)} · ${r.arena}: ${fmt(r.ratio, 3)}× ${DATA.baseline}` }),
      Plot.ruleY([1], { stroke: "#c00", strokeDasharray: "4 3" }),
    ],
  });
  return chartBox("overhead", `Prompt-token overhead vs ${DATA.baseline}`, true, figure, `Mean prompt tokens over the baseline's on the same arena. Over all arenas both ran (Σ/Σ): ${totals || "—"}.`);
}

function latencyChart() {
  const samples = [];
  for (const c of DATA.cells) for (const v of c.latencySamples) samples.push({ arena: c.arena, series: c.series, latency: v });
  if (samples.length === 0) return null;
  const figure = Plot.plot({
    ...baseOptions(280),
    y: { grid: true, label: "seconds" },
    marks: [Plot.boxY(samples, { fx: "arena", x: "series", y: "latency", fill: "series", fillOpacity: 0.6 })],
  });
  return chartBox("latency", "Latency distribution per item", false, figure, "Box: quartiles; whiskers: 1.5 IQR; dots: items beyond.");
}

function renderCharts() {
  const boxes = [passRateChart(), ...METRIC_CHARTS.map(metricChart), overheadChart(), latencyChart()].filter(Boolean);
  return section("charts", "Charts", boxes.length ? boxes : h("p", {}, "No items to chart."));
}
