/**
 * The adapter contract (harness.md §2). An adapter module's default export is an {@link Adapter};
 * the worker host loads it by path, builds one runner per arena + config, and drives it.
 */
import type { AdapterConfig, AgentResultInput, ArenaSpec, DECISIONS, Json, WorkItem } from "./protocol.ts";

export type { AdapterConfig, AgentResultInput, ArenaSpec, Json, WorkItem };

/** The canonical tools, bound to this run's corpus. Adapters must execute tools only through it. */
export interface Toolbox {
  /** Run a tool exactly as the canonical spec says; the returned string goes to the model unmodified. */
  dispatch(name: string, args: unknown): string;
}

export interface BuildContext {
  readonly tools: Toolbox;
}

export type Decision = (typeof DECISIONS)[number];

export interface Runner {
  run(item: WorkItem): Promise<AgentResultInput>;
  /** Continue a suspended run. Absent → "unsupported" on arenas that require a pause. */
  resume?(item: WorkItem, state: Json, decision: Decision): Promise<AgentResultInput>;
}

export interface Adapter {
  /** The catalogue name (`--framework`): the folder's name, or the variant's (`vanilla-multi` is `vanilla/multi.ts`). */
  readonly name: string;
  /** `<package> <version>`; must not require the framework to be installed to read. */
  readonly libVersion: string | (() => string);
  /** Sub-agent tool names this adapter advertises (tools.md §8); checked for collisions. */
  readonly delegates?: readonly string[];
  /**
   * Request-body keys this adapter sends beyond the baseline's envelope (model, messages,
   * temperature, stream, tools, tool_choice), each with the mechanism that requires it — e.g.
   * `stop` for a text-protocol loop that parses generation halted at stop sequences. Checked on
   * the wire by the shared-controls probe (probes.md §8): an unrecorded key fails, and so does a
   * recorded one that never appears (a stale exception).
   */
  readonly wireExceptions?: readonly { readonly key: string; readonly reason: string }[];
  /**
   * Whether the adapter reaches the gateway through the platform's `fetch` (default: true). Node
   * loads fetch's client (undici) on first use, ~30–80 ms of CPU: the host loads it while it
   * builds the adapter's first runner, so that cost lands in every fetch adapter's start and in
   * no item's latency. An adapter that never calls `fetch` (the baseline: node:http) says false,
   * and its workers skip the load; if it calls fetch after all, the load lands in its own items.
   */
  readonly usesFetch?: boolean;
  build(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext): Runner | Promise<Runner>;
}

/** Thrown by `build` for an adapter that exists but is not implemented yet. */
export class NotImplementedError extends Error {
  override readonly name = "NotImplementedError";
}
