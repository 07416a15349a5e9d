// What the item table's filters keep and count, its search and its sort: pure functions of the
// rows, so tests run this very file (tests/report-html/items.test.ts) and check its counts
// against the scorecards'.
//
// A filter keeps cells — one framework's one repeat of one item — the unit every scorecard
// figure counts: "Failed" is a scorecard's items − passed (errors included), "Errors" its errors,
// "Not served by the provider" its not-served cells, "Rule violations" its cells with a broken
// rule. A row is shown when any of its cells in scope is kept.

const OUTCOME_FILTERS = [
  { value: "passed", label: "Passed", keep: (c) => c.status === "pass" },
  { value: "failed", label: "Failed", keep: (c) => c.status === "fail" || c.status === "error" },
  { value: "errored", label: "Errors", keep: (c) => c.status === "error" },
  { value: "unserved", label: "Not served by the provider", keep: (c) => c.status === "unserved" },
  { value: "violations", label: "Rule violations", keep: (c) => c.status !== "unserved" && Boolean(c.rules) },
];

// Served errors only, as the scorecards' "Errors (adapter 1, timeout 2)": infra is "not served".
function classFilter(name) {
  return { value: `class:${name}`, label: `errors: ${name}`, keep: (c) => c.status === "error" && c.errorClass === name };
}

function ruleFilter(rule) {
  return { value: `rule:${rule}`, label: `rule: ${rule}`, keep: (c) => c.status !== "unserved" && Boolean(c.rules) && c.rules.includes(rule) };
}

function filterFor(value) {
  if (value.startsWith("class:")) return classFilter(value.slice(6));
  if (value.startsWith("rule:")) return ruleFilter(value.slice(5));
  return OUTCOME_FILTERS.find((f) => f.value === value);
}

// scope: { arena: "" for every arena, series: -1 for every framework or a column index }.
function inScope(row, scope) {
  return !scope.arena || row.arena === scope.arena;
}

function scopedGroups(row, scope) {
  return scope.series < 0 ? row.cells.filter(Boolean) : row.cells[scope.series] ? [row.cells[scope.series]] : [];
}

// Frameworks differ on an item when their folded outcomes do (a row-level filter, counted in items).
function frameworksDiffer(row) {
  return new Set(row.cells.filter(Boolean).map((g) => `${g.passes}/${g.runs}`)).size > 1;
}

function rowKept(row, value, scope) {
  if (!inScope(row, scope)) return false;
  const groups = scopedGroups(row, scope);
  if (groups.length === 0) return false;
  if (value === "all") return true;
  if (value === "differ") return frameworksDiffer(row);
  const filter = filterFor(value);
  return Boolean(filter) && groups.some((g) => g.repeats.some(filter.keep));
}

// Every count the toolbar shows, in one pass over the rows in scope.
function filterCounts(rows, scope) {
  const counts = { all: 0, differ: 0 };
  for (const f of OUTCOME_FILTERS) counts[f.value] = 0;
  const classes = {};
  const rules = {};
  for (const row of rows) {
    if (!inScope(row, scope)) continue;
    const groups = scopedGroups(row, scope);
    if (groups.length === 0) continue;
    counts.all += 1;
    if (frameworksDiffer(row)) counts.differ += 1;
    for (const g of groups) {
      for (const c of g.repeats) {
        for (const f of OUTCOME_FILTERS) if (f.keep(c)) counts[f.value] += 1;
        if (c.status === "error" && c.errorClass) classes[c.errorClass] = (classes[c.errorClass] || 0) + 1;
        if (c.status !== "unserved") for (const rule of c.rules || []) rules[rule] = (rules[rule] || 0) + 1;
      }
    }
  }
  return { counts, classes, rules };
}

// `/pattern/flags` is a regular expression; anything else a case-insensitive substring. Each
// field is tested on its own, so `^` anchors at the start of a question or an answer, and a
// pattern cannot match across two fields. Returns { test(fields) } or { error } (an invalid
// pattern is said, not thrown).
function searchMatcher(text) {
  const query = text.trim();
  if (!query) return null;
  const regex = /^\/(.+)\/([dgimsuvy]*)$/.exec(query);
  if (regex) {
    let re;
    try {
      re = new RegExp(regex[1], regex[2].replace(/[gy]/g, ""));
    } catch (err) {
      return { error: `not a valid regular expression: ${err.message}` };
    }
    return { test: (fields) => fields.some((f) => re.test(f)) };
  }
  const needle = query.toLowerCase();
  return { test: (fields) => fields.some((f) => f.toLowerCase().includes(needle)) };
}

// What search reads: the id, the question, the expectation, each cause and every answer in full
// (from the details; the row's excerpt without them).
function rowFields(row, details) {
  const fields = [row.itemId, row.input, row.expected];
  for (const g of row.cells) {
    if (!g) continue;
    if (g.cause) fields.push(g.cause);
    for (const r of g.repeats) fields.push(details ? details[r.detail].answer : g.answer);
  }
  return fields;
}

// null (unran) sorts last whatever the direction; a lower pass fraction first when ascending.
function groupSortKey(g) {
  if (!g) return null;
  return g.runs === 0 ? -1 : g.passes / g.runs;
}

function compareRows(a, b, column) {
  if (column === "item") return a.index - b.index;
  if (column === "input" || column === "expected") return a.row[column].localeCompare(b.row[column]);
  return groupSortKey(a.row.cells[column]) - groupSortKey(b.row.cells[column]);
}

// sort: { column: "item" | "input" | "expected" | a series index, dir: 1 | -1 }; stable.
function sortRows(rows, sort) {
  const indexed = rows.map((row, index) => ({ row, index }));
  indexed.sort((a, b) => {
    if (typeof sort.column === "number") {
      const ka = groupSortKey(a.row.cells[sort.column]);
      const kb = groupSortKey(b.row.cells[sort.column]);
      if (ka === null || kb === null) return ka === kb ? a.index - b.index : ka === null ? 1 : -1;
    }
    return sort.dir * compareRows(a, b, sort.column) || a.index - b.index;
  });
  return indexed.map((x) => x.row);
}
