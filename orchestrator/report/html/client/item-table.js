// The item table: one row per item, per framework its repeats folded (`2/3`), its answer and
// why it failed. Filtered, searched, sorted and paged, so a 10,000-item run draws one page of
// DOM at a time; the counts and predicates are item-filters.js. A click opens the item
// (item-view.js) through its link (item-link.js).

const PAGE_SIZE = 100;

const tableState = { filter: "all", arena: "", series: -1, search: "", sort: { column: "item", dir: 1 }, page: 0 };

// The details are parsed on the first search (search reads every answer in full), not at load.
const haystacks = new Map();
function haystackOf(row) {
  if (haystacks.has(row.key)) return haystacks.get(row.key);
  const details = lazyJson("report-details");
  // Before the page is parsed, the excerpts stand in (and are not kept).
  if (!details) return rowFields(row, null);
  haystacks.set(row.key, rowFields(row, details));
  return haystacks.get(row.key);
}

function tableScope() {
  return { arena: tableState.arena, series: tableState.series };
}

function visibleItems(matcher) {
  const scope = tableScope();
  const kept = DATA.items.filter((row) => rowKept(row, tableState.filter, scope) && (!matcher || !matcher.test || matcher.test(haystackOf(row))));
  return tableState.sort.column === "item" && tableState.sort.dir === 1 ? kept : sortRows(kept, tableState.sort);
}

function scoreText(g) {
  if (g.runs === 0) return `not served${g.notServed > 1 ? ` ×${g.notServed}` : ""}`;
  return `${g.passes}/${g.runs}${g.notServed ? ` (+${g.notServed} not served)` : ""}`;
}

function groupCell(row, g, column) {
  if (!g) return h("td", { className: "cell st-none", title: `${DATA.series[column].label} did not run this item` }, "—");
  const link = { arena: row.arena, itemId: row.itemId, series: DATA.series[column].id, repeat: g.shown };
  const answer = g.answer ? `“${g.answer}”` : "(no answer)";
  const title = [`${DATA.series[column].label}: ${scoreText(g)}`, answer, g.cause, g.violations ? `${g.violations} rule violation(s)` : ""].filter(Boolean).join("\n");
  return h(
    "td",
    { className: `cell st-${g.status}`, "data-status": g.status, "data-series": link.series, title, onclick: () => showItem(link) },
    h(
      "a",
      { className: "cell-link", href: itemHash(link), onclick: (e) => e.preventDefault() },
      h("span", { className: "score" }, scoreText(g)),
      g.violations ? h("span", { className: "viol", title: "rule violations" }, ` ⚑${g.violations}`) : null,
    ),
    h("div", { className: "answer" }, answer),
    g.cause ? h("div", { className: "cause" }, g.cause) : null,
  );
}

function itemRow(row) {
  return h(
    "tr",
    { "data-key": row.key },
    h("td", { className: "item-id" }, tableState.arena ? null : h("span", { className: "arena" }, row.arena), h("span", {}, row.itemId)),
    h("td", { className: "input", title: row.input }, row.input || "(not recorded)"),
    h("td", { className: "expected", title: row.expected }, row.expected || "—"),
    row.cells.map((g, i) => groupCell(row, g, i)),
  );
}

function sortHeader(column, label, className) {
  const active = tableState.sort.column === column;
  const mark = active ? (tableState.sort.dir === 1 ? " ▲" : " ▼") : "";
  const onclick = () => {
    tableState.sort = active ? { column, dir: -tableState.sort.dir } : { column, dir: 1 };
    refreshItems(false);
  };
  return h("th", { className, "aria-sort": active ? (tableState.sort.dir === 1 ? "ascending" : "descending") : "none" }, h("button", { type: "button", className: "sort", "data-sort": String(column), onclick }, label, mark));
}

function renderItemBody(region) {
  const matcher = searchMatcher(tableState.search);
  const searchError = document.getElementById("item-search-error");
  if (searchError) searchError.textContent = matcher && matcher.error ? matcher.error : "";
  const rows = visibleItems(matcher && matcher.error ? null : matcher);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  tableState.page = Math.min(tableState.page, pages - 1);
  const start = tableState.page * PAGE_SIZE;
  const head = h(
    "thead",
    {},
    h("tr", {}, sortHeader("item", "Item", "item-id"), sortHeader("input", "Question", "input"), sortHeader("expected", "Expected", "expected"), DATA.series.map((s, i) => sortHeader(i, s.label, "cell"))),
  );
  const body = h("tbody", {}, rows.slice(start, start + PAGE_SIZE).map(itemRow));
  const pager = h(
    "div",
    { className: "pager" },
    h("button", { type: "button", disabled: tableState.page === 0, onclick: () => turnPage(region, -1) }, "‹ prev"),
    h("span", { className: "count", id: "item-count" }, `${rows.length} of ${DATA.items.length} items · page ${tableState.page + 1} of ${pages}`),
    h("button", { type: "button", disabled: tableState.page >= pages - 1, onclick: () => turnPage(region, 1) }, "next ›"),
  );
  region.replaceChildren(pager, h("div", { className: "table-region" }, h("table", { className: "items", id: "item-table" }, head, body)));
  region.dataset.rows = String(rows.length);
}

function turnPage(region, delta) {
  tableState.page += delta;
  renderItemBody(region);
}

// One radio per filter, each with its count over the scope (arena × framework), as the scorecards count.
function filterRadios() {
  const { counts, classes, rules } = filterCounts(DATA.items, tableScope());
  const radio = (value, label, count) =>
    h(
      "label",
      { "data-filter": value },
      h("input", { type: "radio", name: "item-filter", value, checked: value === tableState.filter, onchange: () => ((tableState.filter = value), refreshItems(true)) }),
      ` ${label} `,
      h("span", { className: "filter-count" }, String(count)),
    );
  const outcome = [radio("all", "All items", counts.all), OUTCOME_FILTERS.map((f) => radio(f.value, f.label, counts[f.value])), radio("differ", "Frameworks differ (items)", counts.differ)];
  const byClass = Object.keys(classes).sort().map((c) => radio(`class:${c}`, `errors: ${c}`, classes[c]));
  const byRule = Object.keys(rules).sort().map((r) => radio(`rule:${r}`, `rule: ${r}`, rules[r]));
  return h(
    "div",
    { className: "filters", role: "radiogroup", id: "item-filters" },
    h("div", {}, outcome),
    byClass.length || byRule.length ? h("div", {}, byClass, byRule) : null,
  );
}

let refreshItems = () => {};

function scopeSelects() {
  const arena = h(
    "select",
    { id: "arena-filter", onchange: (e) => ((tableState.arena = e.target.value), refreshItems(true, true)) },
    h("option", { value: "" }, "every arena"),
    DATA.arenas.map((a) => h("option", { value: a.id }, a.id)),
  );
  const series = h(
    "select",
    { id: "series-filter", onchange: (e) => ((tableState.series = Number(e.target.value)), refreshItems(true, true)) },
    h("option", { value: "-1" }, "every framework"),
    DATA.series.map((s, i) => h("option", { value: String(i) }, s.label)),
  );
  return [arena, series];
}

function renderItemTable() {
  const region = h("div", { id: "item-region" });
  const filters = h("div", { id: "item-filter-box" });
  refreshItems = (resetPage, recount) => {
    if (resetPage) tableState.page = 0;
    if (recount) {
      // A filter with nothing in the new scope falls back to all items rather than an empty table.
      const { counts, classes, rules } = filterCounts(DATA.items, tableScope());
      const v = tableState.filter;
      const count = v.startsWith("class:") ? classes[v.slice(6)] : v.startsWith("rule:") ? rules[v.slice(5)] : counts[v];
      if (!count) tableState.filter = "all";
      filters.replaceChildren(filterRadios());
    }
    renderItemBody(region);
  };
  filters.replaceChildren(filterRadios());
  const search = h("input", {
    type: "search",
    id: "item-search",
    placeholder: "search questions and answers, or /regex/i",
    // Search reads the full answers in the details block, there once the page is parsed.
    oninput: (e) => ((tableState.search = e.target.value), whenParsed(() => refreshItems(true))),
  });
  renderItemBody(region);
  return section(
    "items",
    "Items",
    h("div", { className: "toolbar" }, scopeSelects(), search, h("span", { className: "bad", id: "item-search-error", role: "status" })),
    filters,
    h("p", { className: "note" }, "Per framework: passed / served repeats, the answer, and why it failed. Counts are cells (item × repeat × framework), as the scorecards count them. Click a cell to open it."),
    region,
  );
}
