/** How a difference from the expectations reads on the terminal, and which ones `--update-expected` may accept. */
import { clipOneLine } from "../report/clip.ts";
import type { Difference, ItemDifference } from "./compare.ts";

export interface RenderOptions {
  /** The command that accepts this run, e.g. `pnpm bench --update-expected`. */
  readonly updateCommand: string;
}

const EXCERPT_CHARS = 160;

/** The first line of a message, cut to a terminal line. */
export function excerpt(text: string, max: number = EXCERPT_CHARS): string {
  return clipOneLine(text.trim().split("\n")[0] ?? "", max);
}

function repeatsNote(d: ItemDifference): string {
  return d.repeats > 1 ? ` (${d.failed_repeats.length} of ${d.repeats} repeats)` : "";
}

function strictNote(d: ItemDifference): string {
  return d.expected_reason === undefined ? ", not expected to" : " (listed as expected; --strict counts it)";
}

/** One line for a difference: `<arena>/<framework>/<item>: <what changed>`. */
export function renderDifference(d: Difference): string {
  switch (d.kind) {
    case "new_failure":
      return `${d.arena}/${d.framework}/${d.item_id}: fails${repeatsNote(d)}${strictNote(d)}`;
    case "error": {
      const cls = d.error_class ? `${d.error_class} ` : "";
      return `${d.arena}/${d.framework}/${d.item_id}: ${cls}error${repeatsNote(d)}${strictNote(d)}: ${excerpt(d.error)}`;
    }
    case "now_passes": {
      const all = d.repeats > 1 ? `passes all ${d.repeats} repeats` : "passes";
      return `${d.arena}/${d.framework}/${d.item_id}: ${all}, but is listed as expected to fail (${excerpt(d.reason, 80)})`;
    }
    case "violation":
      return `${d.arena}/${d.framework}/${d.item_id}: breaks rule ${d.rule}, not expected to: ${excerpt(d.detail)}`;
    case "violation_gone":
      return `${d.arena}/${d.framework}/${d.item_id}: no longer breaks rule ${d.rule}, but is listed as breaking it (${excerpt(d.reason, 80)})`;
    case "isolation_violation":
      return `${d.arena}/${d.framework}: its watched worker broke isolation (${d.violations.length}): ${excerpt(d.violations[0] ?? "")}`;
    case "lane_error":
      return `${d.arena}/${d.framework}: did not run (${d.unavailable_kind ?? "unavailable"}): ${excerpt(d.reason)}`;
  }
}

/**
 * Whether `--update-expected` makes this difference go away. A lane error cannot be expected
 * (the framework must build), and under `--strict` a listed failure stays a difference.
 */
export function acceptable(d: Difference): boolean {
  if (d.kind === "lane_error" || d.kind === "isolation_violation") return false;
  if (d.kind === "now_passes" || d.kind === "violation" || d.kind === "violation_gone") return true;
  return d.expected_reason === undefined;
}

/**
 * The lines to print for a set of differences (none for none). The update command is offered only
 * when it would change the outcome, so a lane error alone never suggests "accepting" it.
 */
export function renderDiff(differences: readonly Difference[], options: RenderOptions): string[] {
  const lines = differences.map(renderDifference);
  if (differences.some(acceptable)) lines.push(`to accept these results as expected: ${options.updateCommand}`);
  return lines;
}
