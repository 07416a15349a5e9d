// The overview grid, the resilience and pause tables, provenance and fairness.

function cellFor(series, arena) {
  return DATA.cells.find((c) => c.series === series && c.arena === arena);
}

function overviewCell(c) {
  if (!c) return h("td", { className: "none" }, "—");
  if (!c.available) return h("td", { className: "unavailable", title: c.reason || "" }, c.unavailable.replace("_", " "));
  const rate = h("div", { className: "rate" }, `${c.passed}/${c.n} `, h("span", {}, pct(c.passRate)), intervalText(c.passInterval, (x) => pct(x)));
  const errors = Object.entries(c.errorsByClass).map(([k, v]) => `${k} ${v}`).join(", ");
  const rules = Object.entries(c.violationsByRule).map(([k, v]) => `${k} ${v}`).join(", ");
  const tone = c.n === 0 ? "none" : c.errors > 0 ? "has-error" : c.passed === c.n ? "all-pass" : "some-fail";
  return h(
    "td",
    { className: tone },
    rate,
    errors ? h("div", { className: "errors" }, `errors: ${errors}`) : null,
    c.notServed ? h("div", { className: "not-served" }, notServedText(c)) : null,
    c.violationItems ? h("div", { className: "violations" }, `violations: ${c.violationItems} (${rules})`) : null,
    c.vsBaseline ? pairedText(c.vsBaseline) : null,
  );
}

// Beside the figures, never in them: the cells the provider failed, by cause.
function notServedText(c) {
  const causes = Object.entries(c.notServedByCause).map(([k, v]) => `${v}× ${k}`).join(", ");
  return `not served by the provider: ${c.notServed} (${causes})`;
}

// Against the baseline on the same cells: the counts decide the direction, p says how surprising they are.
function pairedText(t) {
  return h("div", { className: "paired", title: `exact McNemar over ${t.paired} paired cells${t.dropped ? `; ${t.dropped} pair(s) dropped: not served by the provider` : ""}` }, `vs ${DATA.baseline}: +${t.better} −${t.worse}, p ${t.pValue.toFixed(3)}`);
}

function renderOverview() {
  const head = ["Framework", ...DATA.arenas.map((a) => h("span", { title: a.description }, a.id))];
  const rows = DATA.series.map((s) => [s.label + (s.variant ? " †" : ""), ...DATA.arenas.map((a) => overviewCell(cellFor(s.id, a.id)))]);
  const anyInterval = DATA.cells.some((c) => c.passInterval);
  return section(
    "overview",
    "Overview",
    wiringNote(false),
    table(head, rows, "overview"),
    h(
      "p",
      { className: "note" },
      "Cell: passed/items, pass rate",
      anyInterval ? " [Wilson 95% interval]" : "",
      "; errors by class; items with rule violations; every figure counts only the cells the provider served, the rest are shown as not served",
      DATA.cells.some((c) => c.vsBaseline) ? `; vs ${DATA.baseline}: cells passed where it failed (+) and failed where it passed (−) on the same items × repeats, with the exact McNemar p` : "",
      ". † a variant entry.",
    ),
  );
}

function renderResilience() {
  if (DATA.resilience.length === 0) return null;
  const rows = DATA.resilience.map((r) => [seriesLabel(r.series), `${r.recovered}/${r.n}`, r.failedItems.join(", ") || "—", r.erroredItems.join(", ") || "—", String(r.violationItems)]);
  return section(
    "resilience",
    "Resilience",
    h("p", { className: "note" }, "The same broken tool call for every framework: pass rates here measure each framework's own error handling, in mock mode too."),
    table(["Framework", "Recovered", "Failed items", "Errored items", "Items with violations"], rows, "plain"),
  );
}

function renderPause() {
  if (DATA.pause.length === 0) return null;
  const rows = DATA.pause.map((p) => [
    seriesLabel(p.series),
    p.arena,
    p.kind,
    `${p.paused}/${p.n}`,
    `${p.pausedAndPassed}/${p.n}`,
    fmt(p.meanLegs, 2),
    p.meanResumeStateBytes === undefined ? "—" : `${fmt(p.meanResumeStateBytes, 0)} / ${fmt(p.maxResumeStateBytes, 0)}`,
    p.legPromptTokens.map((t) => fmt(t, 0)).join(" → ") || "—",
  ]);
  return section(
    "pause",
    "Pause and durable resume",
    wiringNote(false),
    table(["Framework", "Arena", "Kind", "Paused", "Paused and passed", "Mean legs", "Resume state bytes (mean / max)", "Mean prompt tokens per leg"], rows, "plain"),
    h("p", { className: "note" }, "durable: the runner is thrown away at the pause and the resume runs in a fresh process."),
  );
}

function renderProvenance() {
  const runRows = DATA.runs.map((r) => {
    const interrupted = Object.entries(r.statuses).filter(([, s]) => s !== "complete").map(([a]) => a);
    return [
      r.label || "—",
      r.runId,
      r.createdAt,
      r.mode,
      r.models.join(", "),
      r.gitSha || "not recorded",
      r.argv ? `arena ${r.argv.join(" ")}` : "—",
      `${r.harnessVersion} · node ${r.node} · ${r.platform}`,
      String(r.sessions),
      interrupted.length ? `interrupted: ${interrupted.join(", ")}` : "complete",
      r.pricing ? `$${r.pricing.inputPerM} / $${r.pricing.outputPerM} per 1M` : "—",
    ];
  });
  return section(
    "provenance",
    "Provenance",
    table(["", "Run", "Created", "Mode", "Model", "Git commit", "Command", "Harness", "Sessions", "Status", "Prices (in / out)"], runRows, "plain"),
    h("h3", {}, "Fairness"),
    table(["Framework", "Items with rule violations", "Rules", "Isolation", "Isolation violations"], DATA.series.map(fairnessRow), "plain"),
    h("h3", { id: "declarations" }, "Declared wire departures"),
    h("p", { className: "note" }, "What each adapter declared in its folder and the witness held it to instead of the exact rule: the answer it reads, normalisations of its own report, prompt templates, tool-schema transforms, framework messages, exempt results, history forms, conversation stages. A framework with none holds every exact rule."),
    table(["Framework", "Declared", "What", "Why"], DATA.series.flatMap(declarationRows), "plain"),
    h("p", { className: "note" }, `Generated ${DATA.generatedAt}. Charts: ${CHART_LIBRARIES}.`),
  );
}

function declarationRows(s) {
  if (s.declarations.length === 0) return [[s.label, "none", "holds the exact rules", "—"]];
  return s.declarations.map((d, i) => [i === 0 ? s.label : "", d.kind, d.what, d.why]);
}

function fairnessRow(s) {
  const cells = DATA.cells.filter((c) => c.series === s.id);
  const rules = {};
  for (const c of cells) for (const [k, v] of Object.entries(c.violationsByRule)) rules[k] = (rules[k] || 0) + v;
  const isolation = [...new Set(cells.filter((c) => c.isolation).map((c) => `${c.isolation.level}, network ${c.isolation.network} (${c.isolation.tool})`))];
  const broken = cells.flatMap((c) => (c.isolation ? c.isolation.violations : []));
  const total = cells.reduce((a, c) => a + c.violationItems, 0);
  return [
    s.label,
    h("td", { className: total ? "bad" : "" }, String(total)),
    Object.entries(rules).map(([k, v]) => `${k} ${v}`).join(", ") || "—",
    isolation.join("; ") || "not recorded",
    h("td", { className: broken.length ? "bad" : "" }, broken.join("; ") || "none"),
  ];
}
