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

// Frameworks on the same point share one label ("vanilla, alpha") instead of overprinting each other.
function sharedLabels(rows) {
  const byPoint = new Map();
  for (const r of rows) {
    const key = `${r.cost}|${r.rate}`;
    if (!byPoint.has(key)) byPoint.set(key, { cost: r.cost, rate: r.rate, names: [] });
    byPoint.get(key).names.push(seriesLabel(r.series));
  }
  return [...byPoint.values()].map((p) => ({ cost: p.cost, rate: p.rate, text: p.names.length > 4 ? `${p.names.slice(0, 3).join(", ")} +${p.names.length - 3}` : p.names.join(", ") }));
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
      height: 260,
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
