// One cell opened: the question, what was expected and why it failed first; then what happened
// (an error, or what the provider did), the answer, the checks, the tool calls as the model sent
// them, each rule violation once, and the transcript as chat turns (chat.js). The details block
// is parsed on the first open, a lane's transcripts when one of its items is opened.

const rowsByKey = new Map();
function rowOf(arena, itemId) {
  if (rowsByKey.size === 0) for (const row of DATA.items) rowsByKey.set(`${row.arena}/${row.itemId}`, row);
  return rowsByKey.get(`${arena}/${itemId}`);
}

function itemDialog() {
  let dialog = document.getElementById("item-detail");
  if (!dialog) {
    dialog = h("dialog", { id: "item-detail" });
    // Closing (button or Escape) leaves the link, so a reload does not reopen what was closed.
    dialog.addEventListener("close", () => {
      if (parseItemHash(location.hash)) history.replaceState(null, "", "#items");
    });
    document.body.append(dialog);
  }
  return dialog;
}

const STATUS_TEXT = { pass: "passed", fail: "failed", error: "errored", unserved: "not served by the provider" };

function essentials(row, d, group) {
  const outcome = `${seriesLabel(d.series)} · repeat ${d.repeat} of ${group.repeats.length} · ${STATUS_TEXT[d.status]}`;
  return h(
    "dl",
    { className: "essentials" },
    h("dt", {}, "Question"),
    h("dd", { className: "question" }, row.input || "(not recorded: the run's dataset is not at hand and no transcript was kept)"),
    h("dt", {}, "Expected"),
    h("dd", { className: "expected" }, row.expected || "—"),
    h("dt", {}, "Outcome"),
    h("dd", { className: `outcome st-${d.status}` }, outcome),
    h("dt", {}, "Cause"),
    h("dd", { className: "cause" }, d.cause || (d.violations.length ? "passed, with rule violations (below)" : "passed")),
  );
}

// Every framework that ran the item, and the repeats of this one: one click to switch.
function switcher(row, link, group) {
  const others = row.cells.map((g, i) => {
    if (!g) return null;
    const target = { ...link, series: DATA.series[i].id, repeat: g.shown };
    const current = target.series === link.series;
    return h("button", { type: "button", className: `switch st-${g.status}${current ? " current" : ""}`, "data-series": target.series, onclick: () => showItem(target) }, `${DATA.series[i].label} ${scoreText(g)}`);
  });
  const repeats = group.repeats.length > 1
    ? group.repeats.map((r) => h("button", { type: "button", className: `switch st-${r.status}${r.repeat === link.repeat ? " current" : ""}`, "data-repeat": String(r.repeat), onclick: () => showItem({ ...link, repeat: r.repeat }) }, `repeat ${r.repeat}`))
    : null;
  return h("div", { className: "item-switch" }, h("div", {}, "Frameworks: ", others), repeats ? h("div", {}, "Repeats: ", repeats) : null);
}

function whatHappened(d) {
  if (d.notServed) {
    const faults = d.notServed.faults.map((f) => `leg ${f.leg}: ${f.fault}${f.status !== null ? ` (${f.status})` : ""}`).join("; ");
    return h(
      "div",
      { className: "error-box unserved" },
      h("strong", {}, `Not served by the provider: ${d.notServed.cause}`),
      h("p", {}, `The provider (or the network to it) failed this cell, so it counts in no figure: it says nothing about ${seriesLabel(d.series)}.${faults ? ` The gateway saw ${faults}.` : ""}`),
      d.error ? pre(d.error) : null,
    );
  }
  if (d.error) return h("div", { className: "error-box" }, h("strong", {}, `${d.errorClass} error`), pre(d.error));
  return null;
}

function checksView(d) {
  if (!d.checksRan) return h("p", { className: "note" }, "No check ran: the item ended in an error before it could be scored.");
  return table(["Check", "OK", "Detail"], d.checks.map((c) => [c.type, h("td", { className: c.ok ? "ok" : "bad" }, c.ok ? "yes" : "no"), c.detail]), "plain checks");
}

function toolCallsView(d, calls) {
  if (!calls) return h("p", {}, `Tool calls: ${d.toolCalls.join(", ") || "none"} (no transcript: arguments not recorded)`);
  if (calls.length === 0) return h("p", {}, "No tool calls.");
  return h(
    "ul",
    { className: "tool-calls" },
    calls.map((c) => {
      const valid = argumentsAreObject(c.args);
      return h("li", { className: valid ? "" : "malformed" }, h("code", {}, `${c.name}(${c.args})`), valid ? "" : h("span", { className: "bad" }, " malformed: not a JSON object"), h("span", { className: "muted" }, ` leg ${c.leg}, request ${c.request}`));
    }),
  );
}

// The witness quotes the history the framework sent; a malformed call the model made shows there
// as the framework rewrote it (`calculator({})`), so the call as served is put beside it.
function violationsView(d, calls) {
  if (d.violations.length === 0) return null;
  const rows = d.violations.map((v) => {
    const name = /^([\w.-]+)\(/.exec(v.detail);
    const sent = name && calls ? calls.filter((c) => c.leg === v.leg && c.name === name[1] && !argumentsAreObject(c.args)) : [];
    const requests = v.requests.length ? v.requests.join(", ") : "—";
    return [v.rule, String(v.leg), requests, h("td", {}, v.detail, sent.map((c) => h("div", { className: "muted" }, `as the model sent it: ${c.name}(${c.args})`)))];
  });
  return [
    h("h3", {}, `Rule violations (${d.violations.length})`),
    table(["Rule", "Leg", "Seen on request", "Detail"], rows, "plain violations"),
    d.waived ? h("p", { className: "note" }, `${d.waived} more waived: a provider fault caused them.`) : null,
  ];
}

function renderItemView(dialog, link) {
  const row = rowOf(link.arena, link.itemId);
  const column = DATA.series.findIndex((s) => s.id === link.series);
  const group = row && column >= 0 ? row.cells[column] : null;
  const cell = group ? group.repeats.find((r) => r.repeat === link.repeat) : null;
  const close = h("button", { type: "button", className: "close", autofocus: true, onclick: () => dialog.close() }, "close");
  if (!cell) {
    dialog.replaceChildren(h("header", {}, h("h2", {}, "No such item"), close), h("p", { className: "bad" }, `This report has no cell ${link.arena} / ${link.itemId} / ${link.series} / repeat ${link.repeat}.`));
    return;
  }
  const d = lazyJson("report-details")[cell.detail];
  const lane = d.transcript ? lazyJson(`transcripts-${d.transcript.lane}`) : null;
  const transcript = lane ? lane.items[d.transcript.key] : null;
  const calls = transcript ? servedToolCalls(transcript) : null;
  const figures = `${d.promptTokens} prompt + ${d.completionTokens} completion tokens · ${d.llmCalls} LLM call(s) · ${fmt(d.latencyS, 3)} s · ${d.legs} leg(s)${d.retries ? ` · ${d.retries} retried after a provider fault` : ""}`;
  dialog.dataset.link = itemHash(link);
  // append() skips the parts that have nothing to show (null); replaceChildren would print them.
  dialog.replaceChildren();
  append(dialog, [
    h("header", {}, h("h2", {}, `${link.arena} / ${link.itemId}`), h("a", { className: "item-link", href: itemHash(link), title: "a stable link to this cell" }, "link"), close),
    essentials(row, d, group),
    switcher(row, link, group),
    whatHappened(d),
    h("h3", {}, "Answer"),
    pre(d.answer || "(empty)", "answer"),
    h("h3", {}, "Checks"),
    checksView(d),
    h("h3", {}, "Tool calls"),
    toolCallsView(d, calls),
    violationsView(d, calls),
    h("p", { className: "note" }, figures),
    h("h3", {}, "Transcript"),
    transcript ? chatView(transcript, lane.blocks) : h("p", { className: "note" }, "No transcript recorded for this item."),
  ]);
  dialog.scrollTop = 0;
}

function openItemView(link) {
  if (document.readyState === "loading") return void whenParsed(() => openItemView(link));
  const dialog = itemDialog();
  renderItemView(dialog, link);
  if (!dialog.open) dialog.showModal();
}

// From a click: open it and make the address its link (Back returns to where the reader was).
function showItem(link) {
  const hash = itemHash(link);
  if (location.hash !== hash) history.pushState(null, "", hash);
  openItemView(link);
}

// The address decides: an item link opens its cell, anything else closes the view.
function followItemLink() {
  const link = parseItemHash(location.hash);
  const dialog = document.getElementById("item-detail");
  if (link) openItemView(link);
  else if (dialog && dialog.open) dialog.close();
}

function watchItemLinks() {
  window.addEventListener("hashchange", followItemLink);
  window.addEventListener("popstate", followItemLink);
  if (parseItemHash(location.hash)) followItemLink();
}
