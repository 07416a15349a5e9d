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
  /** Model calls the run has made so far (Mastra's step count, which `maxSteps` is measured against). */
  readonly steps: number;
}

export function parseHandle(state: unknown, dir: string): RunHandle | string {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return "resume_state is not an object";
  const s = state as Record<string, unknown>;
  if (typeof s.run_id !== "string" || s.run_id === "") return "resume_state has no run_id";
  if (typeof s.tool_call_id !== "string" || s.tool_call_id === "") return "resume_state has no tool_call_id";
  if (typeof s.steps !== "number" || !Number.isInteger(s.steps) || s.steps < 0) return "resume_state has no step count";
  if (s.store_file === null) {
    if (dir !== "") return "the run was kept in memory by another process";
  } else if (s.store_file !== STORE_FILE) {
    return `not this adapter's store file: ${JSON.stringify(s.store_file)}`;
  } else if (dir === "" || !existsSync(path.join(dir, STORE_FILE))) {
    return `store file ${STORE_FILE} is missing from the checkpoint directory`;
  }
  return { run_id: s.run_id, tool_call_id: s.tool_call_id, store_file: s.store_file as string | null, steps: s.steps };
}

/**
 * The item error for an exception, or an error Mastra resolved with, as `<name>: <message>`. The
 * harness classifies a returned error by its text, so the facts it needs are kept in it: Mastra's
 * step timeout (`MastraTimeoutError: Model call timed out after …`) already says "timed out", and
 * an HTTP failure (`AI_APICallError`, whose message is only the provider's body) gets its status
 * appended, so a 5xx that survived Mastra's retries is an infra error, not the framework's.
 */
export function legError(err: unknown): string {
  if (!(err instanceof Error)) return `Error: ${String(err)}`;
  process.stderr.write(`${err.stack ?? err.message}\n`);
  const status = (err as { statusCode?: unknown }).statusCode;
  const suffix = Number.isInteger(status) ? ` (status code ${status})` : "";
  return `${err.name}: ${err.message}${suffix}`;
}

/** What an aborted loop resolves with instead of throwing: empty text, no error (README, Findings). */
export const ABORTED = "TimeoutError: the model call was aborted and Mastra resolved with empty text (timed out)";
