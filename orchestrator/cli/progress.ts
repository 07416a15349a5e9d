/**
 * Progress on stderr while a run goes. On a terminal one line is rewritten in place; otherwise
 * (CI logs, pipes) one plain line per finished framework × arena and per failed item, so a log
 * stays readable.
 */
import type { ProgressEvent } from "../run/index.ts";

export function progressReporter(write: (text: string) => void, isTty: boolean): (e: ProgressEvent) => void {
  const lanes = new Map<string, { passed: number; failed: number }>();
  return (e) => {
    const key = `${e.framework}/${e.arena}`;
    if (e.unavailable) {
      write(`${isTty ? "\r\x1b[K" : ""}${key}: not available — ${e.unavailable}\n`);
      return;
    }
    const lane = lanes.get(key) ?? { passed: 0, failed: 0 };
    lanes.set(key, lane);
    if (e.passed) lane.passed++;
    else lane.failed++;
    if (isTty) {
      if (!e.passed) write(`\r\x1b[K${key}/${e.itemId}${e.repeat ? `#${e.repeat}` : ""}: failed — ${e.reason ?? "no reason"}\n`);
      write(`\r\x1b[K[${e.done}/${e.total}] ${key}/${e.itemId}`);
      if (e.done === e.total) write("\r\x1b[K");
    } else if (!e.passed) {
      write(`${key}/${e.itemId}${e.repeat ? `#${e.repeat}` : ""}: failed — ${e.reason ?? "no reason"}\n`);
    }
  };
}
