/**
 * What a probe judges: one adapter's run on one arena reduced to what the gateway saw (served
 * bodies, every attempt, usage), what the run record says, what the adapter reported per leg and
 * declared on its build reply, and what it left in its checkpoint folders. Plain JSON, so a run made in one
 * test file can be read by another.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { ArenaConfig } from "../config/arena-config.ts";
import type { AttemptRecord } from "../gateway/recorder.ts";
import type { AdapterRecord } from "../report/record.ts";

export type Body = Record<string, any>;

/** What one answered leg returned, as the worker sent it (bulky fields dropped; a leg that failed is the item's error). */
export interface LegReport {
  readonly leg: "run" | "resume";
  readonly item: string;
  readonly result: unknown;
}

/** Concatenated text of a message's content (a string, or content parts' text). */
export function messageText(message: Record<string, any>): string {
  const c = message?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

export interface InlineArena {
  readonly id?: string;
  readonly tools: readonly string[];
  readonly prompt: string;
  readonly durable?: boolean;
  readonly items: readonly { id: string; input: string; resume_with?: string; checks?: unknown[] }[];
  /** A mock_script.json object (usually just a `default`). */
  readonly script: unknown;
}

export interface Declared {
  readonly delegates: readonly string[];
  readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
}

export interface FileEntry {
  readonly path: string;
  readonly bytes: number;
}

export interface WireRun {
  readonly adapter: string;
  readonly record: AdapterRecord;
  /** Served request bodies, plain JSON, in arrival order. */
  readonly bodies: readonly Body[];
  /** Completion attempts, faulted ones included. */
  readonly attempts: number;
  /** Every completions attempt with its timing (arrival, client gone, response sent), in arrival order. */
  readonly attemptLog: readonly AttemptRecord[];
  /** The worker tag each served request came in under, in arrival order (which process asked). */
  readonly requestTags: readonly string[];
  readonly servedUsage: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly llm_calls: number };
  /** What each leg returned, as the worker sent it; in the order items finished. */
  readonly reported: readonly LegReport[];
  /** The adapter's declarations as its first build reply carried them (empty when no build answered). */
  readonly declared: Declared;
  /** The seed the run's setup values were drawn with (draws.ts): a judge draws its expectations again from it. */
  readonly seed: string;
  /** The config overrides the run was given (a setup's random canary: judged against what was asked). */
  readonly config: Partial<ArenaConfig>;
  /** Files left in the lane's checkpoint folders, relative to it (`<item>.r<repeat>/…`). */
  readonly checkpointFiles: readonly FileEntry[];
  /** How a timing measurement was taken, shown with any violation it leads to. */
  readonly note?: string;
}

/** Every file under `dir`, relative paths with `/`, sorted. */
export function listFiles(dir: string): FileEntry[] {
  const out: FileEntry[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(d, name);
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(full);
      else out.push({ path: path.relative(dir, full).split(path.sep).join("/"), bytes: st.size });
    }
  };
  walk(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}
