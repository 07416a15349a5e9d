/**
 * The durable store: ADK's `InMemorySessionService` is the only session service that needs no
 * database driver, so at a pause the session's events are written as one JSON file into the item's
 * checkpoint directory (harness-owned, the only place an adapter may write), and a resume in a fresh
 * process appends them to a new in-memory session before it continues. `resume_state` is only the
 * handle to that file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Event } from "@google/adk";

export const FORMAT = "agentic-arena/google_adk-session/1";

/** What crosses the pause in `resume_state` (plain JSON): where the run is and what it waits for. */
export interface SessionHandle {
  readonly session_id: string;
  /** File name inside the item's checkpoint directory. */
  readonly session_file: string;
  /** The `adk_request_confirmation` calls the run is waiting on, answered by the resume. */
  readonly confirmation_ids: readonly string[];
  /** How many events the file holds: the resume refuses a file that moved on. */
  readonly events: number;
}

const FILE_PATTERN = /^adk-session-[A-Za-z0-9_.-]+\.json$/;

export function sessionFile(sessionId: string): string {
  return `adk-session-${sessionId}.json`;
}

/** Write the events atomically (temp file + rename), so a kill mid-write never leaves half a session. */
export function saveSession(dir: string, sessionId: string, events: readonly Event[]): string {
  mkdirSync(dir, { recursive: true });
  const name = sessionFile(sessionId);
  const tmp = path.join(dir, `.${name}.tmp`);
  writeFileSync(tmp, JSON.stringify({ format: FORMAT, session_id: sessionId, events }));
  renameSync(tmp, path.join(dir, name));
  return name;
}

/** The events of a paused run, or why they cannot be had. */
export function loadSession(dir: string, handle: SessionHandle): Event[] | string {
  if (dir === "") return "this item has no checkpoint directory";
  if (!FILE_PATTERN.test(handle.session_file)) return `not a session file name: ${JSON.stringify(handle.session_file)}`;
  const file = path.join(dir, handle.session_file);
  if (!existsSync(file)) return `session file ${handle.session_file} is missing`;
  const stored = JSON.parse(readFileSync(file, "utf8")) as { format?: unknown; session_id?: unknown; events?: unknown };
  if (stored.format !== FORMAT || stored.session_id !== handle.session_id || !Array.isArray(stored.events)) {
    return `session file ${handle.session_file} does not hold session ${handle.session_id}`;
  }
  if (stored.events.length !== handle.events) return `session ${handle.session_id} has ${stored.events.length} events, the pause left ${handle.events}`;
  return stored.events as Event[];
}

export function parseHandle(state: unknown): SessionHandle | string {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return "resume_state is not an object";
  const s = state as Record<string, unknown>;
  if (typeof s.session_id !== "string" || s.session_id === "") return "resume_state has no session_id";
  if (typeof s.session_file !== "string") return "resume_state has no session_file";
  const ids = s.confirmation_ids;
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === "string")) return "resume_state has no confirmation_ids";
  if (typeof s.events !== "number") return "resume_state has no event count";
  return { session_id: s.session_id, session_file: s.session_file, confirmation_ids: ids as string[], events: s.events };
}
