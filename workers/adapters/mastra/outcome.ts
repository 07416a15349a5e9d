/**
 * The pieces of a leg's outcome that are plain data: the resume handle and error texts. Kept apart
 * from the runner so they can be tested without the framework.
 */
import { existsSync } from "node:fs";
import path from "node:path";

/** The LibSQL database of one item × repeat, inside its checkpoint directory. */
export const STORE_FILE = "mastra.db";

/** What crosses a pause (opaque to the harness; plain JSON): where the suspended run is. */
export interface RunHandle {
  readonly run_id: string;
  readonly tool_call_id: string;
  /** The database file inside `checkpoint_dir`, or null when the run was kept in memory. */
  readonly store_file: string | null;
}

export function parseHandle(state: unknown, dir: string): RunHandle | string {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return "resume_state is not an object";
  const s = state as Record<string, unknown>;
  if (typeof s.run_id !== "string" || s.run_id === "") return "resume_state has no run_id";
  if (typeof s.tool_call_id !== "string" || s.tool_call_id === "") return "resume_state has no tool_call_id";
  if (s.store_file === null) {
    if (dir !== "") return "the run was kept in memory by another process";
  } else if (s.store_file !== STORE_FILE) {
    return `not this adapter's store file: ${JSON.stringify(s.store_file)}`;
  } else if (dir === "" || !existsSync(path.join(dir, STORE_FILE))) {
    return `store file ${STORE_FILE} is missing from the checkpoint directory`;
  }
  return { run_id: s.run_id, tool_call_id: s.tool_call_id, store_file: s.store_file as string | null };
}

/**
 * The item error for an exception or an error Mastra resolved with. Mastra's step timeout
 * (`MastraTimeoutError`) is named so the harness classifies it as a timeout; anything else keeps
 * its own name.
 */
export function legError(err: unknown): string {
  if (err instanceof Error) {
    process.stderr.write(`${err.stack ?? err.message}\n`);
    const timedOut = err.name === "MastraTimeoutError" || /timed? ?out/i.test(err.message);
    return timedOut && !/timed out/i.test(err.message) ? `TimeoutError: ${err.message} (timed out)` : `${err.name}: ${err.message}`;
  }
  return `Error: ${String(err)}`;
}
