// Entry point (last in the bundle). Sets data-ready when the page is drawn, or data-failed with
// the message, so the browser test and the size benchmark have one thing to wait for.

// Each run with its own mode (`R1 mock · R2 live`): a combined report never labels all rows with one.
function runModes() {
  return DATA.runs.map((r) => (r.label ? `${r.label} ${r.mode}` : r.mode)).join(" · ");
}

function boot() {
  const title = DATA.runs.length === 1 ? `Run ${DATA.runs[0].runId}` : `${DATA.runs.length} runs`;
  const nav = h(
    "nav",
    {},
    [["leaderboard", "Leaderboard"], ["charts", "Charts"], ["resilience", "Resilience"], ["pause", "Pause"], ["provenance", "Provenance"], ["items", "Items"], ...(DATA.comparisons ? [["compare", "Run vs run"]] : [])].map(([id, label]) => h("a", { href: `#${id}` }, label)),
  );
  const root = document.getElementById("app");
  // append() skips the sections that have nothing to show (null); replaceChildren would print them.
  root.replaceChildren();
  append(root, [
    h("header", {}, h("h1", {}, `agentic-arena report — ${title}`), h("p", { className: "mode" }, `mode: ${runModes()} · ${DATA.items.length} items · ${DATA.series.length} framework column(s)`), nav),
    renderBanner(),
    renderLeaderboard(),
    renderCompare(),
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
