/**
 * A canonical tool is one object (shared spec, tools.md): its name, description and parameters
 * (from which the advertised spec is derived, specs.ts), the body `dispatch` runs, and whether it
 * pauses the run. Each tool is defined in its own file and collected in `canonical.ts`.
 */
import type { PyValue } from "@agentic-arena/py-semantics";
import type { Corpus } from "./corpus-path.ts";

export type ParameterType = "string" | "integer";

export interface ParameterDefinition {
  readonly type: ParameterType;
  readonly description: string;
  /**
   * Advertised in the spec (`"default": 3`) and used by the body when the model leaves the
   * argument out. A JS number; serialised through `fromJs` so it stays an int.
   */
  readonly default?: number;
  /** Listed in the spec's `required`, in declaration order. */
  readonly required?: boolean;
}

/** Declaration order is the advertised order of `properties`. */
export type Parameters = Readonly<Record<string, ParameterDefinition>>;

/**
 * What a body receives for each parameter: Python's `args.get(name, fallback)` — the value as
 * sent when the key is present (a present `null` stays null), else the declared default, else
 * `""` for a string and `0` for an integer. Arguments that are not parameters never reach a body.
 * Coercion (`str()`, `int()`) is the body's own, as in the reference.
 */
export type Arguments<P extends Parameters> = { readonly [K in keyof P]: PyValue };

export interface ToolEnv {
  readonly corpus: Corpus;
  /** The boundary arena's policy fixture; absent everywhere else. */
  readonly boundary?: (action: string) => string;
}

export interface ToolDefinition<N extends string = string, P extends Parameters = Parameters> {
  readonly name: N;
  readonly description: string;
  readonly parameters: P;
  /** The result string goes to the model unmodified; a throw becomes `ERROR: tool '<name>' raised …`. */
  run(args: Arguments<P>, env: ToolEnv): string;
  /**
   * A suspend tool (tools.md §7): an adapter must pause the run at a call instead of running it
   * (the body only exposes an adapter that did not). `request` is the argument that says what the
   * human is asked to decide (the result's `suspend_request`).
   */
  readonly pause?: { readonly request: keyof P & string };
  /**
   * Why the harness cannot run an arena that declares this tool faithfully (tools.md §9): such an
   * arena is reported as unsupported on every adapter, never scored.
   */
  readonly unsupported?: string;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Declare a tool; the definition is frozen (adapters read it, none may change it). */
export function defineTool<const N extends string, const P extends Parameters>(definition: ToolDefinition<N, P>): ToolDefinition<N, P> {
  return deepFreeze(definition);
}

export { deepFreeze };
