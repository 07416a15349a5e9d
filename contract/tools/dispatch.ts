/**
 * Runs one tool call the way the reference implementation does (shared spec, tools.md §3). Every
 * outcome, including a broken call, is a string for the model: a framework must be able to recover
 * from a bad call, so nothing here may throw.
 */
import { fromJs, isPyDict, parsePyJson, pyInt, pyStr, reprString, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { calculator } from "@agentic-arena/py-semantics/calculator";
import { bookRoom, searchRooms } from "./rooms.ts";
import { search, type Corpus } from "./search.ts";

export interface ToolEnv {
  readonly corpus: Corpus;
  /** The boundary arena's policy fixture; absent everywhere else. */
  readonly boundary?: (action: string) => string;
}

type ToolBody = (args: PyDict, env: ToolEnv) => string;

/** Python `dict.get`: the default applies only to an absent key; a present `null` is returned. */
function get(args: PyDict, key: string, fallback: PyValue): PyValue {
  return args.has(key) ? (args.get(key) as PyValue) : fallback;
}

/** Python truthiness, for `x or 0`. */
function truthy(v: PyValue): boolean {
  if (v === null || v === false) return false;
  if (typeof v === "string" || Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "number") return v !== 0;
  return true;
}

const TOOLS: ReadonlyMap<string, ToolBody> = new Map<string, ToolBody>([
  [
    "search",
    (args, env) => {
      const query = pyStr(get(args, "query", ""));
      const k = pyInt(get(args, "k", 3n));
      return search(env.corpus, query, k);
    },
  ],
  ["calculator", (args) => calculator(pyStr(get(args, "expr", "")))],
  [
    "search_rooms",
    (args) => {
      const raw = get(args, "capacity", 0n);
      const capacity = pyInt(truthy(raw) ? raw : 0n);
      return searchRooms(capacity, pyStr(get(args, "day", "")));
    },
  ],
  ["book_room", (args) => bookRoom(pyStr(get(args, "room_id", "")))],
  // Suspend tools: an adapter must intercept these; the bodies only expose one that did not.
  [
    "request_approval",
    (args) => `NOT APPROVED - the agent did not pause for a decision on: ${pyStr(get(args, "summary", ""))}`,
  ],
  [
    "save_progress",
    (args) => `NOT CHECKPOINTED - the adapter did not suspend at: ${pyStr(get(args, "note", ""))}`,
  ],
  [
    "boundary_action",
    (args, env) => {
      const action = pyStr(get(args, "action", ""));
      return env.boundary ? env.boundary(action) : "ERROR: boundary fixture is not configured";
    },
  ],
]);

/** Step 1–2: JSON text is parsed, and anything that is not an object counts as `{}`. */
function toArguments(name: string, args: unknown): PyDict | string {
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = args === "" ? new Map() : parsePyJson(args);
    } catch {
      return `ERROR: tool arguments for ${reprString(name)} were not valid JSON`;
    }
  } else if (!isPyDict(args)) {
    // A PyDict is used as is: re-reading it through fromJs would turn a float 3.0 into an int.
    try {
      value = fromJs(args);
    } catch {
      value = null;
    }
  }
  return isPyDict(value) ? value : new Map();
}

/**
 * `args` may be JSON text (as a model sends it), a PyDict, or a plain JS object (whose integral
 * numbers are read as ints; pass text or a PyDict when a float like 3.0 must stay a float).
 */
export function dispatch(name: string, args: unknown, env: ToolEnv): string {
  const parsed = toArguments(name, args);
  if (typeof parsed === "string") return parsed;
  const body = TOOLS.get(name);
  if (!body) return `ERROR: unknown tool ${reprString(name)}`;
  try {
    return body(parsed, env);
  } catch (err) {
    return `ERROR: tool ${reprString(name)} raised ${err instanceof Error ? err.message : String(err)}`;
  }
}
