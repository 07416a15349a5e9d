/**
 * Why an item failed, in one line a reader can act on: the error and its class when it errored,
 * otherwise the first failing check's detail; and always what the model answered (cut short), so
 * "expected a number within 0.0 of 405.0" comes with the text it was looking at.
 */
import { clipOneLine } from "./clip.ts";
import type { ItemRecord } from "./record.ts";

const ANSWER_CHARS = 80;
const DETAIL_CHARS = 160;

/** `"the answer…"`, or `(no answer)` for an empty one. */
export function answerExcerpt(outputText: string): string {
  const flat = clipOneLine(outputText, ANSWER_CHARS);
  return flat === "" ? "(no answer)" : JSON.stringify(flat);
}

/** The reason alone: `adapter error: …` or `<check type>: <detail>`; empty for a passed item. */
export function failureCause(item: Pick<ItemRecord, "passed" | "error" | "error_class" | "checks">): string {
  if (item.passed) return "";
  if (item.error) return `${item.error_class ?? "adapter"} error: ${clipOneLine(item.error, DETAIL_CHARS)}`;
  const failing = item.checks.find((c) => !c.ok);
  return failing ? `${failing.type}: ${clipOneLine(failing.detail, DETAIL_CHARS)}` : "failed";
}

/** `<cause>; answer: "<excerpt>"` */
export function failureReason(item: Pick<ItemRecord, "passed" | "error" | "error_class" | "checks" | "output_text">): string {
  return `${failureCause(item)}; answer: ${answerExcerpt(item.output_text)}`;
}
