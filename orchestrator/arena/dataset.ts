/** dataset.jsonl as Python reads it: `splitlines()`, strip, skip blank and `#` lines, one JSON value per line. */
import { DATA_MAX_DEPTH, parsePyJson, PyJsonError, pySplitLines, pyStr, pyStrip, type PyValue } from "@agentic-arena/py-semantics";
import type { LineCounter } from "./text.ts";
import { pyTruthy } from "@agentic-arena/py-semantics";

export type DatasetLine =
  | { readonly line: number; readonly value: PyValue; readonly error?: undefined }
  | { readonly line: number; readonly error: PyJsonError; readonly value?: undefined };

/** Physical line numbers count every Python line break, not only `\n`. */
export const datasetLineOf: LineCounter = (before) => pySplitLines(`${before}x`).length;

export function datasetLines(text: string): DatasetLine[] {
  const out: DatasetLine[] = [];
  pySplitLines(text).forEach((raw, i) => {
    const line = pyStrip(raw);
    if (line === "" || line.startsWith("#")) return;
    try {
      out.push({ line: i + 1, value: parsePyJson(line, { maxDepth: DATA_MAX_DEPTH }) });
    } catch (err) {
      if (!(err instanceof PyJsonError)) throw err;
      out.push({ line: i + 1, error: err });
    }
  });
  return out;
}

/** How messages name an item: its id, or `<line N>` when it has none (the original's wording). */
export function itemLabel(id: PyValue | undefined, line: number): string {
  return pyTruthy(id) ? pyStr(id!) : `<line ${line}>`;
}
