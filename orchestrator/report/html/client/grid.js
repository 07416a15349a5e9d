// The item grid: item × framework, filtered and paged so a 10,000-item run renders one page of
// DOM at a time. Clicking a cell opens the item (detail.js).

const PAGE_SIZE = 100;
const SYMBOL = { pass: "✓", fail: "✗", error: "!", unserved: "⊘" };

const FILTERS = {
  all: { label: "All", keep: () => true },
  failed: { label: "Failed", keep: (row) => row.cells.some((c) => c && c.status === "fail") },
  errored: { label: "Errored", keep: (row) => row.cells.some((c) => c && c.status === "error") },
  unserved: { label: "Not served by the provider", keep: (row) => row.cells.some((c) => c && c.status === "unserved") },
  differ: { label: "Frameworks differ", keep: (row) => new Set(row.cells.filter(Boolean).map((c) => c.status)).size > 1 },
  violations: { label: "Rule violations", keep: (row) => row.cells.some((c) => c && c.violations > 0) },
};

const gridState = { filter: "all", arena: "", search: "", page: 0 };

function visibleRows() {
  const keep = FILTERS[gridState.filter].keep;
  const search = gridState.search.trim().toLowerCase();
  return DATA.items.filter((row) => (!gridState.arena || row.arena === gridState.arena) && (!search || row.itemId.toLowerCase().includes(search)) && keep(row));
}

function gridRow(row) {
  return h(
    "tr",
    { "data-key": row.key },
    h("td", {}, row.arena),
    h("td", { className: "item-id" }, row.itemId),
    h("td", {}, String(row.repeat)),
    row.cells.map((c, i) => {
      if (!c) return h("td", { className: "st-none" }, "·");
      const title = `${DATA.series[i].label}: ${c.status}${c.violations ? `, ${c.violations} rule violation(s)` : ""}`;
      return h(
        "td",
        { className: `st-${c.status} clickable`, title, "data-status": c.status, onclick: () => openItem(row, i) },
        SYMBOL[c.status],
        c.violations ? h("sup", { className: "viol" }, String(c.violations)) : null,
      );
    }),
  );
}

function renderGridBody(container) {
  const rows = visibleRows();
  const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
  gridState.page = Math.min(gridState.page, pages - 1);
  const start = gridState.page * PAGE_SIZE;
  const page = rows.slice(start, start + PAGE_SIZE);
  const body = h("tbody", {}, page.map(gridRow));
  const head = h("thead", {}, h("tr", {}, h("th", {}, "Arena"), h("th", {}, "Item"), h("th", {}, "Repeat"), DATA.series.map((s) => h("th", {}, s.label))));
  const pager = h(
    "div",
    { className: "pager" },
    h("button", { type: "button", disabled: gridState.page === 0, onclick: () => goPage(container, -1) }, "‹ prev"),
    h("span", { className: "count" }, `${rows.length} of ${DATA.items.length} rows · page ${gridState.page + 1} of ${pages}`),
    h("button", { type: "button", disabled: gridState.page >= pages - 1, onclick: () => goPage(container, 1) }, "next ›"),
  );
  container.replaceChildren(pager, h("table", { className: "grid", id: "item-table" }, head, body));
  container.dataset.rows = String(rows.length);
}

function goPage(container, delta) {
  gridState.page += delta;
  renderGridBody(container);
}

function renderGrid() {
  const container = h("div", { id: "grid-body" });
  const refresh = () => {
    gridState.page = 0;
    renderGridBody(container);
  };
  const filters = h(
    "div",
    { className: "filters", role: "radiogroup" },
    Object.entries(FILTERS).map(([key, f]) =>
      h("label", {}, h("input", { type: "radio", name: "item-filter", value: key, checked: key === gridState.filter, onchange: () => ((gridState.filter = key), refresh()) }), ` ${f.label}`),
    ),
  );
  const arena = h(
    "select",
    { id: "arena-filter", onchange: (e) => ((gridState.arena = e.target.value), refresh()) },
    h("option", { value: "" }, "every arena"),
    DATA.arenas.map((a) => h("option", { value: a.id }, a.id)),
  );
  const search = h("input", { type: "search", id: "item-search", placeholder: "item id", oninput: (e) => ((gridState.search = e.target.value), refresh()) });
  renderGridBody(container);
  return section(
    "items",
    "Items",
    h("div", { className: "toolbar" }, filters, arena, search),
    h("p", { className: "note" }, "✓ passed · ✗ failed · ! error · superscript: rule violations · click a cell to open the item."),
    container,
  );
}
