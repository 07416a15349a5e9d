// Shared by every client file (they are concatenated into one function scope by render.ts).
// Data only ever reaches the page through textContent and attributes, never innerHTML: the
// report shows model output and tool arguments, which are untrusted text.

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "className") el.className = value;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function readJson(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : undefined;
}

// Parsed on first use: details and transcripts can be most of a large report's bytes.
const lazyJson = (() => {
  const cache = new Map();
  return (id) => {
    // While the page is still parsing, a block after the script may be missing or cut short:
    // nothing is read (or cached) until it is done.
    if (!cache.has(id) && document.readyState !== "loading") cache.set(id, readJson(id));
    return cache.get(id);
  };
})();

function fmt(x, digits) {
  if (x === undefined || x === null || Number.isNaN(x)) return "—";
  return x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function pct(x, digits = 0) {
  return `${fmt(x * 100, digits)}%`;
}

function intervalText(interval, format) {
  return interval && interval.low !== undefined ? ` [${format(interval.low)}–${format(interval.high)}]` : "";
}

function section(id, title, ...children) {
  return h("section", { id }, h("h2", {}, title), ...children);
}

// Mock mode scripts every model turn, so only figures about the framework's own handling of
// identical turns compare anything; every other figure is shown as wiring.
function wiringNote(meaningful) {
  if (DATA.mode === "live" || meaningful) return null;
  // A combined report names its mock runs: the note must not sit over a live run's rows unqualified.
  const mocks = DATA.runs.filter((r) => r.mode === "mock").map((r) => r.label);
  if (DATA.mode === "mixed") return h("p", { className: "wiring" }, `Mock runs (${mocks.join(", ")}): wiring only, not a comparison; live runs are measurements.`);
  return h("p", { className: "wiring" }, "Mock mode: wiring only, not a comparison.");
}

function seriesLabel(id) {
  const s = DATA.series.find((x) => x.id === id);
  return s ? s.label : id;
}

function table(head, rows, className) {
  return h(
    "table",
    { className },
    h("thead", {}, h("tr", {}, head.map((c) => h("th", {}, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, r.map((c) => (c instanceof Node && c.tagName === "TD" ? c : h("td", {}, c)))))),
  );
}

function pre(text, className) {
  return h("pre", { className }, text);
}

function prettyJson(value) {
  return JSON.stringify(value, null, 2);
}

// Tool arguments arrive as a JSON string; shown pretty when they parse, verbatim when they do not
// (a malformed call is exactly what the resilience arena is about).
function prettyArguments(text) {
  if (typeof text !== "string") return prettyJson(text);
  try {
    return prettyJson(JSON.parse(text));
  } catch {
    return text;
  }
}
