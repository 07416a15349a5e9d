// The stable link to one cell: #<arena>/<item>/<framework>/<repeat>, each segment
// encodeURIComponent-encoded (so a series id of a combined report, `R2/vanilla`, is one segment:
// `R2%2Fvanilla`), the repeat 1-based as in scorecard.md and the CLI. Any other view may link to
// a cell with such an href; the page opens it on load and on every hash change.

function itemHash(link) {
  return `#${[link.arena, link.itemId, link.series, String(link.repeat)].map(encodeURIComponent).join("/")}`;
}

// null for anything that is not a cell link (a section anchor such as #items, a malformed escape).
function parseItemHash(hash) {
  const parts = String(hash || "").replace(/^#/, "").split("/");
  if (parts.length !== 4) return null;
  let decoded;
  try {
    decoded = parts.map(decodeURIComponent);
  } catch {
    return null;
  }
  const [arena, itemId, series, repeatText] = decoded;
  const repeat = Number(repeatText);
  if (!arena || !itemId || !series || !/^\d+$/.test(repeatText) || repeat < 1) return null;
  return { arena, itemId, series, repeat };
}

// The details and transcript blocks follow the client script in the page (render.ts), so what
// reads them waits until the parser is done; once it is, this runs `fn` at once.
function whenParsed(fn) {
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn, { once: true });
  else fn();
}
