/**
 * The `langgraph` runner: one leg = one `invoke` of the agent graph on a thread of the
 * checkpointer. A suspend tool calls `interrupt()`, the leg returns a small handle to the paused
 * thread, and `resume` reopens the same checkpointer and continues with `Command({ resume })`.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { Command, GraphRecursionError } from "@langchain/langgraph";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json, WorkItem } from "../../../contract/protocol.ts";
import type { BuildContext, Decision, Runner } from "../../../contract/adapter.ts";
import { MAX_ITERATIONS_ERROR } from "../../../contract/texts.ts";
import { agentGraph, recursionLimitFor } from "./graph.ts";
import { messageText, rawArgumentsById, summariseLeg, type Execution } from "./history.ts";
import { chatModel } from "./model.ts";
import { newThreadId, parseHandle, RunStore, type OpenStore, type RunHandle } from "./store.ts";
import { canonicalTools, type PauseRequest } from "./tools.ts";

type AgentGraph = ReturnType<typeof agentGraph>;

interface Interrupted {
  readonly id?: string;
  readonly value?: unknown;
}

function pauseSummary(interrupts: readonly Interrupted[]): string {
  return interrupts
    .map((i) => (i.value as PauseRequest | undefined)?.summary ?? "")
    .filter((s) => s !== "")
    .join("\n");
}

/** Text for an exception that ended a leg; anything but the recursion cap keeps its name. */
export function legError(err: unknown): string {
  if (err instanceof GraphRecursionError) return MAX_ITERATIONS_ERROR;
  if (err instanceof Error) {
    process.stderr.write(`${err.stack ?? err.message}\n`);
    return `${err.name}: ${err.message}`;
  }
  return `Error: ${String(err)}`;
}

export function buildLangGraphRunner(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext): Runner {
  const model = chatModel(config);
  const pauses = namesFor(arena.tools).some(isSuspendTool);
  const store = new RunStore(pauses);

  /** A graph bound to one open store; the raw-arguments index and the execution log are per leg. */
  function compile(open: OpenStore, history: readonly BaseMessage[], executed: Execution[] = []): AgentGraph {
    const raw = rawArgumentsById(history);
    const tools = canonicalTools(
      arena.tools,
      ctx.tools,
      (id) => (id === undefined ? undefined : raw.get(id)),
      (call) => executed.push(call),
    );
    return agentGraph({
      model,
      systemPrompt: arena.systemPrompt,
      tools,
      checkpointer: open.saver,
      onReply: (reply: AIMessage) => {
        for (const [id, args] of rawArgumentsById([reply])) raw.set(id, args);
      },
    });
  }

  async function leg(
    graph: AgentGraph,
    open: OpenStore,
    thread: string,
    input: unknown,
    before: ReadonlySet<string>,
    resumed: boolean,
    executed: readonly Execution[],
  ): Promise<AgentResultInput> {
    const threadConfig = { configurable: { thread_id: thread } };
    let error: string | null = null;
    try {
      await graph.invoke(input as never, {
        ...threadConfig,
        recursionLimit: recursionLimitFor(config.maxToolIterations, resumed),
        durability: "sync",
      });
    } catch (err) {
      error = legError(err);
    }
    // The last saved checkpoint: complete after an answer or a pause, and up to the last finished
    // step after an exception, so the usage of every call that was served is still reported.
    const snapshot = await graph.getState(threadConfig);
    const messages: BaseMessage[] = snapshot.values?.messages ?? [];
    const summary = summariseLeg(messages, before, executed);
    const usage = {
      tool_calls: summary.tool_calls,
      prompt_tokens: summary.prompt_tokens,
      completion_tokens: summary.completion_tokens,
      llm_calls: summary.llm_calls,
      raw: summary.invalid_tool_calls.length > 0 ? ({ invalid_tool_calls: summary.invalid_tool_calls } as Json) : null,
    };
    if (error !== null) return { ...usage, output_text: summary.last_content, error };

    const interrupts: Interrupted[] = snapshot.tasks.flatMap((t) => t.interrupts ?? []);
    if (interrupts.length > 0) {
      const handle: RunHandle = {
        thread_id: thread,
        checkpoint_file: open.file,
        checkpoint_id: String(snapshot.config.configurable?.checkpoint_id ?? ""),
      };
      return {
        ...usage,
        output_text: summary.last_content,
        suspended: true,
        suspend_request: pauseSummary(interrupts),
        resume_state: { ...handle },
      };
    }
    const last = messages.at(-1);
    const answer = last && AIMessage.isInstance(last) ? messageText(last) : summary.last_content;
    return { ...usage, output_text: answer };
  }

  return {
    async run(item: WorkItem) {
      const thread = newThreadId(item.id);
      const open = store.open(thread, item.checkpointDir);
      try {
        const executed: Execution[] = [];
        const graph = compile(open, [], executed);
        return await leg(graph, open, thread, { messages: [new HumanMessage(item.input)] }, new Set(), false, executed);
      } finally {
        open.close();
      }
    },

    async resume(item: WorkItem, state: Json, decision: Decision) {
      const handle = parseHandle(state);
      if (typeof handle === "string") return { error: `cannot resume: ${handle}` };
      const open = store.reopen(handle, item.checkpointDir);
      if (typeof open === "string") return { error: `cannot resume: ${open}` };
      try {
        const threadConfig = { configurable: { thread_id: handle.thread_id } };
        const probe = compile(open, []);
        const snapshot = await probe.getState(threadConfig);
        const history: BaseMessage[] = snapshot.values?.messages ?? [];
        if (history.length === 0) return { error: `cannot resume: no run on thread ${handle.thread_id}` };
        if (snapshot.config.configurable?.checkpoint_id !== handle.checkpoint_id) {
          return { error: `cannot resume: thread ${handle.thread_id} is no longer at checkpoint ${handle.checkpoint_id}` };
        }
        const pending: Interrupted[] = snapshot.tasks.flatMap((t) => t.interrupts ?? []);
        if (pending.length === 0) return { error: `cannot resume: thread ${handle.thread_id} is not paused` };
        // One pause: resume with the decision itself; several (batched suspend calls): one decision each.
        const resume =
          pending.length === 1 ? decision : Object.fromEntries(pending.map((i) => [String(i.id), decision]));
        const executed: Execution[] = [];
        const graph = compile(open, history, executed);
        const before = new Set(history.flatMap((m) => (m.id === undefined ? [] : [m.id])));
        return await leg(graph, open, handle.thread_id, new Command({ resume }), before, true, executed);
      } finally {
        open.close();
      }
    },
  };
}
