// Pass rate against cost, one panel per arena: the trade-off a reader chooses a framework by.
// Cost is the priced estimate where the run was priced, else tokens per item (what a price
// would multiply), and the axis says which.

function scatterRows() {
  const priced = DATA.board.arenas.some((b) => b.rows.some((r) => r.meanCostUsd !== undefined));
  const rows = DATA.board.arenas.flatMap((b) =>
    b.rows
      .filter((r) => r.rank && (priced ? r.meanCostUsd !== undefined : r.meanTokens !== undefined))
      .map((r) => ({ arena: b.arena, series: r.series, cost: priced ? r.meanCostUsd : r.meanTokens, rate: r.passRate, low: r.passInterval && r.passInterval.low, high: r.passInterval && r.passInterval.high })),
  );
  return { priced, rows };
}

const SCATTER_WIDTH = PANEL_WIDTH - 44 - 90;
const SCATTER_HEIGHT = 260 - 50;
const LABEL_STEP = 13 / SCATTER_HEIGHT;

// Frameworks on (nearly) the same point share one label ("vanilla, alpha"); a label that would
// overprint one already placed moves a line down (its `shift` in pass-rate units), so every name
// stays legible. Text width is estimated (6 px a character at 11 px), enough to keep them apart.
function sharedLabels(rows) {
  const span = Math.max(...rows.map((r) => r.cost), 0) || 1;
  const groups = [];
  for (const r of [...rows].sort((a, b) => a.cost - b.cost || b.rate - a.rate)) {
    const near = groups.find((g) => Math.abs(g.rate - r.rate) < 0.03 && Math.abs(g.cost - r.cost) < 0.04 * span);
    if (near) near.names.push(seriesLabel(r.series));
    else groups.push({ cost: r.cost, rate: r.rate, names: [seriesLabel(r.series)] });
  }
  const placed = [];
  return groups.map((g) => {
    const text = g.names.length > 4 ? `${g.names.slice(0, 3).join(", ")} +${g.names.length - 3}` : g.names.join(", ");
    const left = (g.cost / (span * 1.1)) * SCATTER_WIDTH + 8;
    const right = left + text.length * 6;
    let y = g.rate;
    while (placed.some((p) => Math.abs(p.y - y) < LABEL_STEP * 0.9 && p.left < right && left < p.right)) y -= LABEL_STEP;
    placed.push({ y, left, right });
    return { cost: g.cost, rate: y, text };
  });
}

function renderScatter() {
  const { priced, rows } = scatterRows();
  if (rows.length === 0) return null;
  const costText = (x) => (priced ? `$${fmt(x, 5)}` : `${fmt(x, 0)} tokens`);
  const figure = panels("scatter", rows, (panelRows) => {
    const bounded = panelRows.filter((r) => r.low !== undefined);
    const most = Math.max(...panelRows.map((r) => r.cost), 0);
    return Plot.plot({
      width: PANEL_WIDTH,
      height: SCATTER_HEIGHT + 50,
      marginLeft: 44,
      marginRight: 90,
      style: { fontSize: "11px" },
      x: { grid: true, label: priced ? "mean cost per item (USD)" : "mean tokens per item (prompt + completion)", domain: [0, most * 1.1 || 1] },
      y: { grid: true, label: "pass rate", domain: [0, 1], tickFormat: "%" },
      color: colourScale(),
      symbol: symbolScale(),
      marks: [
        Plot.ruleX(bounded, { x: "cost", y1: "low", y2: "high", stroke: "series", strokeOpacity: 0.5 }),
        Plot.dot(panelRows, { x: "cost", y: "rate", symbol: "series", fill: "series", r: SYMBOL_RADIUS, stroke: "#fff", strokeWidth: 0.8, title: (r) => `${seriesLabel(r.series)} · ${r.arena}\n${pct(r.rate)} at ${costText(r.cost)}${intervalText(r, (x) => pct(x))}` }),
        Plot.text(sharedLabels(panelRows), { x: "cost", y: "rate", text: "text", textAnchor: "start", dx: 8, fill: "#333" }),
      ],
    });
  });
  return chartBox("scatter", priced ? "Pass rate against cost" : "Pass rate against tokens (the run was not priced)", DATA.mode === "live", figure, "One dot per framework (its colour and symbol); the faint rule is its 95% pass-rate interval. Up and to the left is better.");
}
