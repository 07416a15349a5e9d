/**
 * The item table's data: one row per arena × item, one group per framework column holding that
 * item's repeats (as Inspect groups epochs: `2/3`). A row carries what the table prints and what
 * its filters count; everything the item view shows sits in `details`, parsed when one is opened.
 */
import type { ErrorClass } from "../../run/error-class.ts";
import type { GroupedViolation } from "./cause.ts";

/** `unserved`: the provider failed the cell (report/not-served.ts), which no figure counts. */
export type ItemStatus = "pass" | "fail" | "error" | "unserved";

/** A group's colour: `partial` when some served repeats passed and some did not. */
export type GroupStatus = ItemStatus | "partial";

/** One repeat of an item on one series: exactly what the filters count, as the scorecards count cells. */
export interface RepeatCell {
  /** 1-based, as scorecard.md, the CLI and the item links number repeats. */
  readonly repeat: number;
  readonly status: ItemStatus;
  /** Set on an errored or unserved cell (records from before classes count as `adapter`). */
  readonly errorClass?: ErrorClass;
  /** The rules broken on this cell, each once; absent when none were. */
  readonly rules?: string[];
  /** Index into `details`. */
  readonly detail: number;
}

/** One series on one item: its repeats folded, the answer and cause of the repeat worth reading. */
export interface ItemGroup {
  readonly status: GroupStatus;
  readonly passes: number;
  /** Served repeats: the denominator of `passes`, as in the scorecards. */
  readonly runs: number;
  /** Repeats the provider did not serve, counted beside `runs`. */
  readonly notServed: number;
  /** Distinct rule violations over the repeats (a violation the witness saw on several requests is one). */
  readonly violations: number;
  /** The first repeat that did not pass (or the first repeat): the one a click opens. */
  readonly shown: number;
  /** That repeat's answer, on one line and cut short; the full text is in its detail. */
  readonly answer: string;
  /** That repeat's one-line cause (html/cause.ts); empty when every repeat passed. */
  readonly cause: string;
  readonly repeats: RepeatCell[];
}

export interface ItemRow {
  /** `<arena>/<item id>`. */
  readonly key: string;
  readonly arena: string;
  readonly itemId: string;
  /** The question as the arena's dataset has it (or as the first request sent it); empty when neither is at hand. */
  readonly input: string;
  /** The item's checks in words (html/expected.ts). */
  readonly expected: string;
  /** One entry per series (same order as `series`): null where the series did not run the item. */
  readonly cells: (ItemGroup | null)[];
}

export interface ItemDetail {
  readonly series: string;
  /** 1-based. */
  readonly repeat: number;
  readonly status: ItemStatus;
  readonly cause: string;
  /** False when the item errored before scoring: its checks then say only that they were skipped. */
  readonly checksRan: boolean;
  readonly checks: { type: string; ok: boolean; detail: string }[];
  readonly answer: string;
  readonly toolCalls: string[];
  readonly error?: string;
  readonly errorClass?: ErrorClass;
  /** A cell the provider did not serve: what it did (`503`, `reset`, …) and on which legs. */
  readonly notServed?: { readonly cause: string; readonly faults: { leg: number; fault: string; status: number | null }[] };
  /** Attempts the framework made again after a provider fault: credited, never a violation. */
  readonly retries?: number;
  readonly violations: GroupedViolation[];
  /** Violations a provider fault caused, charged to nobody. */
  readonly waived: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly llmCalls: number;
  readonly latencyS: number;
  readonly legs: number;
  /** Where this item's exchanges are, when its lane recorded them: `transcripts[lane].items[key]`. */
  readonly transcript?: { readonly lane: number; readonly key: string };
}
