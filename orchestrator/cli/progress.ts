/**
 * Progress on stderr while a run goes. On a terminal one live line is rewritten in place (done /
 * total, passed / failed / errored, ETA); piped (CI logs) a plain heartbeat line every few seconds,
 * one line per failure and a last line, so a log shows the run is alive without a line per item.
 * Cells the provider failed the same way in a row are one line and a count, not a line each.
 * `--quiet` turns it off. The line itself is a pure function of the counts and the clock.
 */
import type { ProgressEvent, RunPlanEvent } from "../run/index.ts";
import { EtaEstimator } from "./eta.ts";
import type { ItemRecord } from "../report/record.ts";

export type ProgressMode = "tty" | "plain" | "quiet";

export interface ProgressCounts {
  readonly done: number;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly errored: number;
  /** Cells this session ran (a resume's recorded cells and unavailable lanes count as done, not ran). */
  readonly ran: number;
}

/** `1m05s`, `42s`: short enough for a status line. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
}

/** ` · ETA 1m05s`, or nothing while the estimate is not settled (eta.ts): a wrong ETA is worse than none. */
export function etaText(etaMs: number | undefined): string {
  return etaMs === undefined ? "" : ` · ETA ${duration(etaMs)}`;
}

export function progressLine(counts: ProgressCounts, elapsedMs: number, etaMs?: number): string {
  const c = counts;
  return `[${c.done}/${c.total}] ${c.passed} passed, ${c.failed} failed, ${c.errored} errored · ${duration(elapsedMs)} elapsed${etaText(c.done < c.total ? etaMs : undefined)}`;
}

/** The line printed as soon as the plan is known, before the first worker has started. */
export function planLine(plan: RunPlanEvent): string {
  const adapters = new Set(plan.lanes.map((l) => l.adapter)).size;
  const toRun = plan.lanes.reduce((a, l) => a + l.cells, 0);
  const kept = plan.total - toRun;
  return (
    `plan: ${toRun} cell(s) to run over ${plan.lanes.length} lane(s) of ${adapters} adapter(s)${kept > 0 ? ` (${kept} kept from an earlier session)` : ""}, ` +
    `${plan.concurrency} in flight; starting workers\n`
  );
}

export interface ProgressOptions {
  readonly write: (text: string) => void;
  readonly mode: ProgressMode;
  /** Milliseconds; injected by tests. */
  readonly now?: () => number;
  /** Piped mode: one heartbeat line this often (default 5 s). */
  readonly heartbeatMs?: number;
  /** Terminal mode: the live line is redrawn this often even when no cell finishes (default 1 s). */
  readonly refreshMs?: number;
  /** Starts a repeating timer and returns its stop; injected by tests (default: an unref'd setInterval). */
  readonly every?: (ms: number, tick: () => void) => () => void;
}

export interface Progress {
  /** The plan is known: one line at once, and the counts start (so the heartbeat does). */
  onPlan(plan: RunPlanEvent): void;
  onProgress(e: ProgressEvent): void;
  /** Each finished cell's record (before its progress event): tells an errored cell from a failed one. */
  onItem(arena: string, adapter: string, record: ItemRecord): void;
  /** The run is over: clear the live line, or print the last plain line; stops the heartbeat. */
  stop(): void;
}

const defaultEvery = (ms: number, tick: () => void) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

const cellName = (e: { arena: string; framework: string; itemId?: string; repeat?: number }) =>
  `${e.framework}/${e.arena}/${e.itemId}${e.repeat ? `#${e.repeat + 1}` : ""}`;

export function createProgress(options: ProgressOptions): Progress {
  const { write, mode } = options;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const errors = new Map<string, string>();
  /** Cells whose error followed a provider fault, by name: the fault that ended them. */
  const providerFailed = new Map<string, string>();
  /** Lines for cells the provider failed in the same way in a row: the first is printed, the rest counted. */
  let repeated: { key: string; more: number } | undefined;
  const flushRepeated = () => {
    if (repeated !== undefined && repeated.more > 0) write(`${clear}  … and ${repeated.more} more cell(s) errored the same way (provider ${repeated.key})\n`);
    repeated = undefined;
  };
  let counts: ProgressCounts = { done: 0, total: 0, passed: 0, failed: 0, errored: 0, ran: 0 };
  let stopTimer: (() => void) | undefined;
  const clear = mode === "tty" ? "\r\x1b[K" : "";
  let estimator: EtaEstimator | undefined;
  const line = () => progressLine(counts, now() - started, estimator?.estimateMs(now()));

  if (mode === "plain") {
    stopTimer = (options.every ?? defaultEvery)(options.heartbeatMs ?? 5000, () => {
      if (counts.total > 0) write(`${line()}\n`);
    });
  } else if (mode === "tty") {
    // Workers start and build before the first cell ends: the elapsed time keeps moving meanwhile.
    stopTimer = (options.every ?? defaultEvery)(options.refreshMs ?? 1000, () => {
      if (counts.total > 0) write(`${clear}${line()}`);
    });
  }

  return {
    onPlan(plan) {
      estimator = new EtaEstimator(plan);
      counts = { ...counts, total: plan.total };
      if (mode === "quiet") return;
      write(`${clear}${planLine(plan)}`);
      if (mode === "tty") write(line());
    },
    onItem(arena, adapter, record) {
      const name = cellName({ arena, framework: adapter, itemId: record.item_id, repeat: record.repeat });
      if (record.error) errors.set(name, record.error);
      const last = record.provider_faults?.at(-1);
      if (record.error_class === "infra" && last !== undefined) providerFailed.set(name, last.status === null ? last.fault : `${last.fault} (HTTP ${last.status})`);
    },
    onProgress(e) {
      if (mode === "quiet") return;
      counts = { ...counts, done: e.done, total: e.total };
      if (e.unavailable) estimator?.dropped(e.framework, e.arena, now());
      else if (e.itemId !== undefined && e.seconds !== undefined) estimator?.finished(e.framework, e.arena, e.seconds, now());
      if (e.unavailable) {
        write(`${clear}${e.framework}/${e.arena}: not available — ${e.unavailable}\n`);
      } else if (e.itemId !== undefined) {
        const name = cellName(e);
        const error = errors.get(name);
        counts = {
          ...counts,
          ran: counts.ran + 1,
          passed: counts.passed + (e.passed ? 1 : 0),
          failed: counts.failed + (!e.passed && error === undefined ? 1 : 0),
          errored: counts.errored + (!e.passed && error !== undefined ? 1 : 0),
        };
        // The reason (report/failure-reason.ts) names the error and its class, or the failing check, and the answer.
        const why = e.reason ?? error?.split("\n")[0]!.slice(0, 120) ?? "no reason given";
        const fault = providerFailed.get(name);
        if (!e.passed && fault !== undefined && repeated?.key === fault) repeated.more += 1;
        else if (!e.passed) {
          flushRepeated();
          write(`${clear}${name}: ${error === undefined ? "failed" : "errored"} — ${why}\n`);
          if (fault !== undefined) repeated = { key: fault, more: 0 };
        }
      }
      if (mode === "tty") write(`${clear}${line()}`);
    },
    stop() {
      if (mode !== "quiet") flushRepeated();
      stopTimer?.();
      stopTimer = undefined;
      if (mode === "tty") write(clear);
      else if (mode === "plain" && counts.total > 0) write(`${line()}\n`);
    },
  };
}
