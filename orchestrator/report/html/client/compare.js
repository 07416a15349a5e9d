// The run-vs-run view of a combined report (DATA.comparisons, built by html/compare.ts): per pair of
// consecutive runs, each lane's fixed / broke / unchanged counts, the paired test and the deltas,
// and per item a link to it in each run. Each run is labelled with its own mode: a mock run's
// figures are wiring, a live run's are not, and one note over both would mislabel one of them.

const CHANGE_LABELS = {
  fixed: "fixed",
  broke: "broke",
  unchanged: "unchanged",
  "only-a": "only in A",
  "only-b": "only in B",
  "not-served": "not served",
};

function modeLabel(run) {
  return h("span", { className: `mode-label mode-${run.mode}`, "data-run": run.label }, `${run.label} ${run.mode}`);
}

function runHeading(run) {
  return h("span", { className: "compared-run" }, modeLabel(run), " ", h("code", {}, run.runId));
}

function deltaCell(d, digits) {
  if (!d) return "—";
  const sign = (x) => (x > 0 ? "+" : x < 0 ? "−" : "");
  const change = `${sign(d.change)}${fmt(Math.abs(d.change), digits)}`;
  const relative = d.relative === undefined ? "" : ` (${sign(d.relative)}${fmt(Math.abs(d.relative) * 100, 1)}%)`;
  return h("td", { title: `A ${fmt(d.a, digits)} → B ${fmt(d.b, digits)} per cell` }, change + relative);
}

function fraction(s) {
  return s ? `${s.passes}/${s.runs}` : "—";
}

function itemEntry(item, comparison) {
  const link = (href, run) => (href ? h("a", { href, className: "item-link", "data-run": run.label }, `in ${run.label}`) : null);
  return h(
    "li",
    { className: `change-${item.change}`, "data-item": item.itemId },
    h("code", {}, item.itemId),
    ` ${fraction(item.a)} → ${fraction(item.b)} `,
    link(item.linkA, comparison.a),
    item.linkA && item.linkB ? " · " : null,
    link(item.linkB, comparison.b),
  );
}

// Unchanged items can be most of a large run: drawn only when their list is opened.
function itemLists(lane, comparison) {
  const groups = Object.keys(CHANGE_LABELS).map((change) => [change, lane.items.filter((i) => i.change === change)]).filter(([, items]) => items.length > 0);
  return groups.map(([change, items]) => {
    const list = h("ul", { className: "compare-items" });
    const fill = () => list.childElementCount || append(list, items.map((i) => itemEntry(i, comparison)));
    const details = h("details", { className: `compare-group change-${change}`, ontoggle: fill }, h("summary", {}, `${CHANGE_LABELS[change]}: ${items.length}`), list);
    if (change !== "unchanged") {
      details.open = true;
      fill();
    }
    return details;
  });
}

function laneRow(lane) {
  const c = lane.changes;
  // p is marked only where it says something (below 5%); its colour follows the direction.
  const significant = lane.test.paired > 0 && lane.test.pValue < 0.05;
  const tone = !significant ? "" : c.broke > c.fixed ? "bad" : "ok";
  const p = lane.test.paired === 0 ? "—" : lane.test.pValue.toFixed(3);
  return [
    lane.arena,
    lane.framework,
    h("td", { className: `fixed ${c.fixed ? "ok" : ""}` }, String(c.fixed)),
    h("td", { className: `broke ${c.broke ? "bad" : ""}` }, String(c.broke)),
    h("td", { className: "unchanged" }, String(c.unchanged)),
    String(c["only-a"]),
    String(c["only-b"]),
    h("td", { title: lane.dropped ? `${lane.dropped} cell pair(s) not served by the provider in either run` : "" }, String(c["not-served"])),
    h("td", { className: tone, title: `paired sign-flip test over ${lane.test.paired} item(s) both runs served, repeats one unit` }, p),
    deltaCell(lane.deltas.promptTokens, 1),
    deltaCell(lane.deltas.completionTokens, 1),
    deltaCell(lane.deltas.costUsd, 6),
    deltaCell(lane.deltas.latencyS, 3),
  ];
}

function renderComparison(comparison) {
  const head = ["Arena", "Framework", "Fixed", "Broke", "Unchanged", "Only A", "Only B", "Not served", "p", "Δ prompt tokens", "Δ completion tokens", "Δ cost $", "Δ latency s"];
  const mocks = [comparison.a, comparison.b].filter((r) => r.mode === "mock").map((r) => r.label);
  return h(
    "div",
    { className: "comparison", "data-a": comparison.a.label, "data-b": comparison.b.label },
    h("h3", {}, "A ", runHeading(comparison.a), " → B ", runHeading(comparison.b)),
    mocks.length ? h("p", { className: "wiring" }, `${mocks.join(" and ")} ${mocks.length === 1 ? "is a mock run" : "are mock runs"}: a change there shows wiring, not a framework's quality.`) : null,
    table(head, comparison.lanes.map(laneRow), "compare"),
    comparison.lanes
      .filter((lane) => lane.items.length > 0)
      .map((lane) => h("details", { className: "compare-lane", "data-lane": `${lane.arena}/${lane.framework}`, open: lane.changes.fixed + lane.changes.broke > 0 }, h("summary", {}, `${lane.arena} / ${lane.framework}`), itemLists(lane, comparison))),
  );
}

function renderCompare() {
  if (!DATA.comparisons || DATA.comparisons.length === 0) return null;
  return section(
    "compare",
    "Run vs run",
    h("p", { className: "note" }, "Per item, its pass fraction over the repeats both runs served: fixed = higher in B, broke = lower, unchanged = equal. p: the paired test over those items (repeats one unit). Deltas: B − A per cell, and relative to A."),
    DATA.comparisons.map(renderComparison),
  );
}
