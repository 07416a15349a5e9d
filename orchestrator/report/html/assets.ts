/**
 * What every report page inlines: the charting library's browser bundles, read from
 * node_modules when the report is built (a report must open with no network and no server),
 * and the hand-written client script and stylesheet beside this file.
 */
import { readFileSync } from "node:fs";
import { findPackageJSON } from "node:module";
import path from "node:path";
import { redactSecrets } from "../../files/redact.ts";

export interface Library {
  readonly name: string;
  readonly version: string;
  readonly code: string;
}

export interface Assets {
  /** In load order: d3 first, then Plot, whose UMD bundle reads the global `d3`. */
  readonly libraries: readonly Library[];
  readonly client: string;
  readonly css: string;
}

export class AssetError extends Error {
  override readonly name = "AssetError";
}

/** Both packages declare their minified browser bundle as the `umd` export. */
function umdBundle(name: string): Library {
  const manifestFile = findPackageJSON(name, import.meta.url);
  if (!manifestFile) throw new AssetError(`${name} is not installed (pnpm install)`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as { version: string; exports?: { umd?: string } };
  const relative = manifest.exports?.umd;
  if (!relative) throw new AssetError(`${manifestFile}: no "umd" export to inline`);
  return { name, version: manifest.version, code: readFileSync(path.join(path.dirname(manifestFile), relative), "utf8") };
}

/**
 * Inlined code must not end its own <script> element or open an HTML comment inside it, and must
 * survive the redaction every written file goes through unchanged (a key-shaped string in a
 * library would otherwise be silently rewritten, breaking it).
 */
export function checkInlinable(label: string, code: string): string {
  if (/<\/script|<!--/i.test(code)) throw new AssetError(`${label} contains </script or <!-- and cannot be inlined`);
  if (redactSecrets(code) !== code) throw new AssetError(`${label} contains text shaped like a secret; redaction would alter it`);
  return code;
}

/** Concatenation order matters: helpers first, the entry point (which draws the page) last. */
const CLIENT_FILES = ["dom.js", "colours.js", "tables.js", "charts.js", "scatter.js", "leaderboard.js", "item-link.js", "item-filters.js", "chat.js", "item-table.js", "item-view.js", "compare.js", "main.js"];
/** style.css first; board.css (the leaderboard and charts) after it. */
const CSS_FILES = ["style.css", "board.css"];

let cached: Assets | undefined;

export function loadAssets(): Assets {
  if (cached) return cached;
  const here = import.meta.dirname;
  const libraries = [umdBundle("d3"), umdBundle("@observablehq/plot")].map((l) => ({ ...l, code: checkInlinable(`${l.name}@${l.version}`, l.code) }));
  const client = CLIENT_FILES.map((f) => checkInlinable(f, readFileSync(path.join(here, "client", f), "utf8"))).join("\n");
  const css = CSS_FILES.map((f) => readFileSync(path.join(here, "client", f), "utf8")).join("\n");
  if (/<\/style/i.test(css)) throw new AssetError(`${CSS_FILES.join(" or ")} contains </style`);
  cached = { libraries, client, css };
  return cached;
}
