// The resilience and pause tables, provenance and fairness (the leaderboard is leaderboard.js).

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
