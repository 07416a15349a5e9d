// Entry point (last in the bundle). Sets data-ready when the page is drawn, or data-failed with
// the message, so the browser test and the size benchmark have one thing to wait for.

function banner() {
  if (DATA.mode === "live") return null;
  const text =
    DATA.mode === "mock"
      ? "Mock mode: the model's turns are scripted and identical for every framework. Only the resilience table and the prompt-size comparisons (prompt tokens, overhead vs the baseline) are meaningful; every other figure — pass rates, completion tokens, LLM calls, latency, cost — shows that the wiring works, not how good a framework is."
      : "This report combines mock and live runs: mock figures other than resilience and prompt size are wiring only.";
  return h("div", { className: "banner", role: "note", id: "mode-banner" }, text);
}

function boot() {
  const title = DATA.runs.length === 1 ? `Run ${DATA.runs[0].runId}` : `${DATA.runs.length} runs`;
  const nav = h(
    "nav",
    {},
    [["overview", "Overview"], ["charts", "Charts"], ["resilience", "Resilience"], ["pause", "Pause"], ["provenance", "Provenance"], ["items", "Items"]].map(([id, label]) => h("a", { href: `#${id}` }, label)),
  );
  const root = document.getElementById("app");
  // append() skips the sections that have nothing to show (null); replaceChildren would print them.
  root.replaceChildren();
  append(root, [
    h("header", {}, h("h1", {}, `agentic-arena report — ${title}`), h("p", { className: "mode" }, `mode: ${DATA.mode} · ${DATA.items.length} items · ${DATA.series.length} framework column(s)`), nav),
    banner(),
    renderOverview(),
    renderCharts(),
    renderResilience(),
    renderPause(),
    renderProvenance(),
    renderItemTable(),
  ]);
}

try {
  boot();
  // An item link (#arena/item/framework/repeat) opens its cell, now and on every later change.
  watchItemLinks();
  // Milliseconds since navigation started (what the size benchmark reports as load time), and
  // of that the client's own share: parsing the data and drawing the page.
  document.documentElement.setAttribute("data-ready-ms", String(Math.round(performance.now())));
  document.documentElement.setAttribute("data-draw-ms", String(Math.round(performance.now() - CLIENT_START)));
  document.documentElement.setAttribute("data-ready", "true");
} catch (err) {
  document.documentElement.setAttribute("data-failed", String((err && err.message) || err));
  const app = document.getElementById("app");
  if (app) app.prepend(h("div", { className: "banner failed" }, `The report could not be drawn: ${err && err.message}`));
  throw err;
}
