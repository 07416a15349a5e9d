// Each framework's colour and symbol, computed in Node from its place in the adapter catalogue
// (leaderboard.ts: seriesStyles), so a framework looks the same in every chart of every report.
// Colour alone repeats after ten frameworks; the (colour, symbol) pair does not before seventy.

// One size for a framework's symbol everywhere, so its shape reads the same in every chart.
const SYMBOL_RADIUS = 4.5;

const STYLE_BY_SERIES = new Map(DATA.board.styles.map((s) => [s.series, s]));

function styleOf(series) {
  return STYLE_BY_SERIES.get(series) || { series, index: -1, colour: "#444", symbol: "circle" };
}

// Scale options every chart shares: the domains list every series, so a bar and its legend
// entry never disagree even in a panel that shows a few of them.
function colourScale() {
  const ids = DATA.series.map((s) => s.id);
  return { domain: ids, range: ids.map((id) => styleOf(id).colour) };
}

function symbolScale() {
  const ids = DATA.series.map((s) => s.id);
  return { domain: ids, range: ids.map((id) => styleOf(id).symbol) };
}

const D3_SYMBOLS = { circle: "symbolCircle", square: "symbolSquare", triangle: "symbolTriangle", diamond: "symbolDiamond", star: "symbolStar", cross: "symbolCross", wye: "symbolWye" };

// A framework's mark as a small inline SVG, for tables and legends outside the charts.
function swatch(series, size = 12) {
  const style = styleOf(series);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("viewBox", `${-size / 2} ${-size / 2} ${size} ${size}`);
  svg.setAttribute("class", "swatch");
  svg.setAttribute("data-colour", style.colour);
  svg.setAttribute("data-symbol", style.symbol);
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", d3.symbol(d3[D3_SYMBOLS[style.symbol]] || d3.symbolCircle, (size * size) / 2.6)());
  path.setAttribute("fill", style.colour);
  svg.append(path);
  return svg;
}

function seriesTag(series) {
  return h("span", { className: "series-tag", "data-series": series }, swatch(series), " ", seriesLabel(series));
}

// One legend for the whole charts section: every chart uses these same pairs.
function seriesLegend() {
  return h("div", { className: "legend", id: "series-legend" }, DATA.series.map((s) => seriesTag(s.id)));
}
