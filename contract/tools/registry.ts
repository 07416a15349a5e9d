/**
 * Which tools an arena gets, which ones pause a run, and which framework-added names are exempt
 * from the "only declared tools" rule (shared spec, tools.md §2, §7, §8). Pause and support roles
 * are read off the definitions (`pause`, `unsupported`).
 */
import { reprString } from "@agentic-arena/py-semantics";
import { CANONICAL_TOOLS, TOOL_NAMES, toolDefinition, type ToolName } from "./canonical.ts";
import { toolSpec, type ToolSpec } from "./specs.ts";

export { TOOL_NAMES };

/**
 * Registry names present in `declared`, in registry order: the arena's order, duplicates and unknown
 * names do not matter. Nothing declared means every tool (older arenas).
 */
export function namesFor(declared?: readonly string[] | null): ToolName[] {
  if (!declared || declared.length === 0) return [...TOOL_NAMES];
  const wanted = new Set(declared);
  return TOOL_NAMES.filter((name) => wanted.has(name));
}

export function specsFor(declared?: readonly string[] | null): ToolSpec[] {
  return namesFor(declared).map(toolSpec);
}

/** The tools that pause a run, in registry order. */
export const SUSPEND_TOOLS: readonly ToolName[] = Object.freeze(TOOL_NAMES.filter((name) => CANONICAL_TOOLS[name].pause !== undefined));

export function isSuspendTool(name: string): boolean {
  return toolDefinition(name)?.pause !== undefined;
}

/** The argument of each suspend tool that says what is to be decided, in registry order. */
const PAUSE_REQUESTS: readonly string[] = SUSPEND_TOOLS.map((name) => CANONICAL_TOOLS[name].pause!.request);

/**
 * What a pause call asks the human (the result's `suspend_request`): the first request argument
 * (`summary`, then `note`) the call carries, if it is a string; else "". `args` is the parsed
 * object, or the JSON text the model sent (text that does not parse asks nothing).
 */
export function pauseRequestOf(args: unknown): string {
  let parsed = args;
  if (typeof args === "string") {
    try {
      parsed = JSON.parse(args);
    } catch {
      return "";
    }
  }
  if (parsed === null || typeof parsed !== "object") return "";
  const values = parsed as Record<string, unknown>;
  const value = PAUSE_REQUESTS.map((key) => values[key]).find((v) => v !== undefined && v !== null);
  return typeof value === "string" ? value : "";
}

/**
 * Why the harness cannot run an arena that declares these tools, or undefined when it can. Only
 * an explicit declaration counts: a legacy arena with no tools list gets every tool, but is not a
 * fixture-backed arena.
 */
export function harnessUnsupported(declared: readonly string[]): string | undefined {
  for (const name of declared) {
    const reason = toolDefinition(name)?.unsupported;
    if (reason) return reason;
  }
  return undefined;
}

/** Deliberately a fixed list: anything a framework could name freely would be a loophole. */
export const CONTROL_TOOLS: readonly string[] = Object.freeze(["final_answer"]);
export const HANDOFF_PREFIX = "transfer_to_";

/** Names that grant no task capability: exempt from the declared-tools probe, excluded from `tool_calls`. */
export function isControlTool(name: string, delegates: readonly string[] = []): boolean {
  return CONTROL_TOOLS.includes(name) || name.startsWith(HANDOFF_PREFIX) || delegates.includes(name);
}

export class DelegateCollisionError extends Error {
  override readonly name = "DelegateCollisionError";
  /** The colliding names, sorted by code point as Python's `sorted` does. */
  readonly collisions: readonly string[];
  constructor(collisions: readonly string[]) {
    super(
      `adapter declared [${collisions.map(reprString).join(", ")}] as delegates, but the arena declares them as tools` +
        " — a delegate exemption may not cover a task capability",
    );
    this.collisions = collisions;
  }
}

/** Python's default `str` ordering (code points); JS `sort()` compares UTF-16 units instead. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** A delegate exemption must never cover a name the arena hands out as a real tool. */
export function checkDeclaredDelegates(declared: readonly string[], arenaTools: readonly string[]): void {
  const tools = new Set(arenaTools);
  const collisions = [...new Set(declared)].filter((name) => tools.has(name)).sort(compareCodePoints);
  if (collisions.length > 0) throw new DelegateCollisionError(collisions);
}
