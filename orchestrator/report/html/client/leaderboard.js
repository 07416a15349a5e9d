// The first screen: the banner, then who is best at what — one ranked table per arena and the
// overall row per framework. Every figure and rank comes computed (leaderboard.ts); this draws.

function renderBanner() {
  const notices = DATA.board.notices;
  if (notices.length === 0) return null;
  return h(
    "div",
    { className: "banner", role: "note", id: "banner" },
    notices.map((n) => h("p", { className: `notice notice-${n.kind}`, id: n.kind === "mock" || n.kind === "mixed" ? "mode-banner" : `notice-${n.kind}`, "data-kind": n.kind }, n.text)),
  );
}

function rankText(rank) {
  return rank ? `${rank.tied ? "=" : ""}${rank.position}` : "—";
}

// The interval as a drawn bar on a 0–100% track, the pass rate a tick on it; the text beside it
// never wraps inside its brackets.
function intervalBar(rate, interval) {
  const track = h("span", { className: "track", title: interval ? `95% interval ${pct(interval.low, 1)}–${pct(interval.high, 1)}` : "no interval" });
  if (interval) track.append(h("span", { className: "range", style: `left:${interval.low * 100}%;width:${Math.max(0.5, (interval.high - interval.low) * 100)}%` }));
  track.append(h("span", { className: "point", style: `left:${rate * 100}%` }));
  return h("td", { className: "interval" }, track, interval ? h("span", { className: "interval-text" }, `${pct(interval.low)}–${pct(interval.high)}`) : null);
}

function pairedSummary(t) {
  const direction = t.better > t.worse ? "better" : t.worse > t.better ? "worse" : "differs";
  return `${direction} than ${DATA.baseline}: +${t.better} −${t.worse} items, p ${t.pValue < 0.001 ? "< 0.001" : t.pValue.toFixed(3)}`;
}

// Columns with nothing to show anywhere (an unpriced run's cost) are left out, not printed as dashes.
function boardColumns() {
  const rows = DATA.board.arenas.flatMap((b) => b.rows);
  return {
    cost: rows.some((r) => r.meanCostUsd !== undefined),
    tokens: rows.some((r) => r.meanTokens !== undefined),
    latency: rows.some((r) => r.meanLatencyS !== undefined),
    notServed: rows.some((r) => r.notServed > 0),
    paired: rows.some((r) => r.vsBaseline && r.vsBaseline.significant),
  };
}

// What the errors were and which rules were broken, on hover: the count alone does not say.
function errorsTitle(series, arena) {
  const c = DATA.cells.find((x) => x.series === series && x.arena === arena);
  if (!c) return "";
  const classes = Object.entries(c.errorsByClass).map(([k, v]) => `${k} ${v}`);
  const rules = Object.entries(c.violationsByRule).map(([k, v]) => `${k} ${v}`);
  return [classes.length ? `errors by class: ${classes.join(", ")}` : "", rules.length ? `items with rule violations: ${c.violationItems} (${rules.join(", ")})` : ""].filter(Boolean).join("\n");
}

function boardRowCells(r, cols, arena) {
  if (r.unavailable) return [rankText(undefined), seriesTag(r.series), h("td", { className: "unavailable", colspan: "99" }, r.unavailable.replace(/_/g, " "))];
  const cells = [
    h("td", { className: "rank" }, rankText(r.rank)),
    seriesTag(r.series),
    h("td", { className: "num rate" }, h("strong", {}, pct(r.passRate)), h("span", { className: "count" }, ` ${r.passed}/${r.n}`)),
    intervalBar(r.passRate, r.passInterval),
  ];
  if (cols.notServed) cells.push(h("td", { className: r.notServed ? "num not-served" : "num" }, r.notServed ? String(r.notServed) : "0"));
  cells.push(h("td", { className: r.errors ? "num has-errors" : "num", title: errorsTitle(r.series, arena) || undefined }, String(r.errors)));
  if (cols.cost) cells.push(h("td", { className: "num" }, r.meanCostUsd === undefined ? "—" : `$${fmt(r.meanCostUsd, 5)}`));
  if (cols.tokens) cells.push(h("td", { className: "num" }, fmt(r.meanTokens, 0)));
  if (cols.latency) cells.push(h("td", { className: "num" }, r.meanLatencyS === undefined ? "—" : `${fmt(r.meanLatencyS, 2)} s`));
  if (cols.paired) cells.push(h("td", { className: "paired" }, r.vsBaseline && r.vsBaseline.significant ? pairedSummary(r.vsBaseline) : ""));
  return cells;
}

function boardHead(cols) {
  return [
    "Rank",
    "Framework",
    "Pass rate",
    "95% interval",
    cols.notServed ? h("span", { title: "cells the provider failed: in no figure, not failures" }, "Not served") : null,
    h("span", { title: "served cells the framework itself errored on" }, "Errors"),
    cols.cost ? "Cost / item" : null,
    cols.tokens ? "Tokens / item" : null,
    cols.latency ? "Latency" : null,
    cols.paired ? `vs ${DATA.baseline} (p < ${DATA.board.significanceLevel})` : null,
  ].filter((c) => c !== null);
}

function arenaBoardTable(board, cols) {
  const rows = board.rows.map((r) => boardRowCells(r, cols, board.arena));
  const el = table(boardHead(cols), rows, "board");
  el.setAttribute("data-arena", board.arena);
  el.querySelectorAll("tbody tr").forEach((tr, i) => tr.setAttribute("data-series", board.rows[i].series));
  const arena = DATA.arenas.find((a) => a.id === board.arena);
  return h("div", { className: "board-card" }, h("h3", { title: arena ? arena.description : "" }, board.arena), el);
}

function overallTable() {
  const rows = DATA.board.overall.map((o) => [
    h("td", { className: "rank" }, rankText(o.rank)),
    seriesTag(o.series),
    h("td", { className: "num rate" }, h("strong", {}, pct(o.meanPassRate))),
    intervalBar(o.meanPassRate, { low: o.minPassRate, high: o.maxPassRate }),
    h("td", { className: "num" }, String(o.arenas)),
    o.significantlyBetter || o.significantlyWorse ? `${o.significantlyBetter} better, ${o.significantlyWorse} worse` : "",
  ]);
  const el = table(["Rank", "Framework", "Mean pass rate", "Spread (min–max over arenas)", "Arenas", `Significant vs ${DATA.baseline}`], rows, "board overall");
  el.id = "overall-board";
  el.querySelectorAll("tbody tr").forEach((tr, i) => tr.setAttribute("data-series", DATA.board.overall[i].series));
  return el;
}

// Every paired test, significant or not, one click away rather than in every row.
function pairedDetail() {
  const tests = DATA.board.arenas.flatMap((b) => b.rows.filter((r) => r.vsBaseline).map((r) => ({ arena: b.arena, ...r })));
  if (tests.length === 0) return null;
  const shown = tests.filter((t) => t.vsBaseline.significant).length;
  const rows = tests.map((t) => [
    t.arena,
    seriesLabel(t.series),
    `+${t.vsBaseline.better} −${t.vsBaseline.worse} =${t.vsBaseline.tied}`,
    String(t.vsBaseline.paired),
    t.vsBaseline.pValue.toFixed(3),
    t.vsBaseline.dropped ? `${t.vsBaseline.dropped} dropped (not served)` : "",
  ]);
  return h(
    "details",
    { className: "paired-detail", id: "paired-detail" },
    h("summary", {}, `Paired tests vs ${DATA.baseline}: ${shown} of ${tests.length} below p ${DATA.board.significanceLevel} (shown in the rows above)`),
    h("p", { className: "note" }, "Items paired, an item's repeats one unit: a sign-flip permutation test on per-item pass-fraction differences (exact McNemar when every fraction is 0 or 1). + items better than the baseline, − worse, = equal."),
    table(["Arena", "Framework", "Items + − =", "Paired items", "p", "Pairs dropped"], rows, "plain"),
  );
}

function renderLeaderboard() {
  const cols = boardColumns();
  const anyInterval = DATA.board.arenas.some((b) => b.rows.some((r) => r.passInterval));
  return section(
    "leaderboard",
    "Leaderboard",
    wiringNote(false),
    h("h3", {}, "Overall"),
    overallTable(),
    h("p", { className: "note" }, "Mean of each framework's arena pass rates; the bar spans its lowest to highest arena. Only the frameworks ranked on the most arenas are ranked here; one that ran fewer (a variant, or a framework unsupported on some arenas) keeps its mean, unranked (—), since it is over other questions."),
    h("div", { className: "boards" }, DATA.board.arenas.map((b) => arenaBoardTable(b, cols))),
    h(
      "p",
      { className: "note" },
      "Ranked by pass rate over the cells the provider served; equal rates share a rank (=2). ",
      anyInterval ? "Bar: 95% interval clustered by item (an item's repeats are one unit), tick: the pass rate. " : "",
      cols.notServed ? "Not served: cells the provider failed, left out of every figure. " : "",
      "Errors: served cells the framework errored on (they count as failures).",
    ),
    pairedDetail(),
  );
}
