/**
 * `run` / `resume` for the `mastra` adapter: one Agent per leg (bound to that leg's ledger), run
 * by Mastra's `generate` loop; on an arena with a pause tool, registered on a `Mastra` instance
 * whose LibSQL storage lives in the item's checkpoint directory, so a tool-approval pause is a
 * workflow snapshot on disk that a fresh process resumes with `approveToolCallGenerate` /
 * `declineToolCallGenerate`.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Agent } from "@mastra/core/agent";
import { Mastra } from "@mastra/core/mastra";
import { LibSQLStore } from "@mastra/libsql";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json, WorkItem } from "../../../contract/protocol.ts";
import type { BuildContext, Decision, Runner } from "../../../contract/adapter.ts";
import { LegLedger } from "./ledger.ts";
import { gatewayModel, modelSettings } from "./model.ts";
import { canonicalTools, decisionText } from "./tools.ts";
import { ABORTED, legError, parseHandle, STORE_FILE, type RunHandle } from "./outcome.ts";

import { MAX_ITERATIONS_ERROR as ITERATIONS_EXCEEDED } from "../../../contract/texts.ts";

export { ITERATIONS_EXCEEDED };
/** The snapshot records the agent id: a resume must rebuild the same agent. */
const AGENT_ID = "assistant";

interface OpenStore {
  readonly storage: LibSQLStore;
  readonly file: string | null;
  close(): Promise<void>;
}

export function buildMastraRunner(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext): Runner {
  const pauses = namesFor(arena.tools).some(isSuspendTool);
  /** A pause arena run without a checkpoint directory: resumable in this process only. */
  let memory: LibSQLStore | undefined;

  function openStore(dir: string): OpenStore | undefined {
    if (!pauses) return undefined;
    if (dir === "") {
      memory ??= new LibSQLStore({ id: "arena-mastra", url: ":memory:" });
      return { storage: memory, file: null, close: async () => {} };
    }
    mkdirSync(dir, { recursive: true });
    const storage = new LibSQLStore({ id: "arena-mastra", url: `file:${path.join(dir, STORE_FILE)}` });
    return { storage, file: STORE_FILE, close: () => storage.close() };
  }

  function agentFor(ledger: LegLedger, store: OpenStore | undefined): Agent {
    const agent = new Agent({
      id: AGENT_ID,
      name: AGENT_ID,
      // The arena's instruction verbatim: Mastra sends it as the first (system) message.
      instructions: arena.systemPrompt,
      model: gatewayModel(config),
      tools: canonicalTools(arena.tools, ctx.tools, ledger),
      inputProcessors: [ledger.processor as never],
    });
    if (store === undefined) return agent;
    const mastra = new Mastra({ agents: { [AGENT_ID]: agent }, storage: store.storage, logger: false });
    return mastra.getAgent(AGENT_ID);
  }

  /**
   * `maxSteps` counts the run's steps across resumes (a resumed run restores its earlier steps), so
   * a resumed leg gets the steps already taken plus its own full budget, as every leg does.
   */
  const options = (stepsBefore = 0) => ({ maxSteps: stepsBefore + config.maxToolIterations, modelSettings: modelSettings(config) });

  /** One leg: run `call` on a fresh agent and turn Mastra's outcome into the leg's result. */
  async function leg(dir: string, stepsBefore: number, call: (agent: Agent) => Promise<any>): Promise<AgentResultInput> {
    const ledger = new LegLedger();
    const store = openStore(dir);
    try {
      let result: any;
      try {
        result = await call(agentFor(ledger, store));
      } catch (err) {
        return { output_text: ledger.lastText, tool_calls: ledger.calls, ...ledger.usage(), error: legError(err) };
      }
      return outcome(result, ledger, store, stepsBefore);
    } finally {
      await store?.close();
    }
  }

  function outcome(result: any, ledger: LegLedger, store: OpenStore | undefined, stepsBefore: number): AgentResultInput {
    const base = { tool_calls: ledger.calls, ...ledger.usage() };
    // An aborted or failed model call does not throw: `generate` resolves with the error set.
    if (result.error) return { ...base, output_text: ledger.lastText, error: legError(result.error) };
    if (result.finishReason === "aborted") return { ...base, output_text: ledger.lastText, error: ABORTED };
    if (result.finishReason === "suspended") {
      const pause = result.suspendPayload ?? {};
      const handle: RunHandle = {
        run_id: String(result.runId),
        tool_call_id: String(pause.toolCallId),
        store_file: store?.file ?? null,
        steps: stepsBefore + ledger.llmCalls,
      };
      const args = pause.args ?? {};
      const summary = typeof args.summary === "string" ? args.summary : typeof args.note === "string" ? args.note : "";
      return { ...base, output_text: ledger.lastText, suspended: true, suspend_request: summary, resume_state: { ...handle } };
    }
    // maxSteps spent with the last step still asking for tools: the loop stopped, it did not answer.
    if (result.finishReason === "tool-calls") return { ...base, output_text: ledger.lastText, error: ITERATIONS_EXCEEDED };
    return { ...base, output_text: typeof result.text === "string" ? result.text : "" };
  }

  return {
    run: (item: WorkItem) => leg(item.checkpointDir, 0, (agent) => agent.generate(item.input, options())),

    async resume(item: WorkItem, state: Json, decision: Decision) {
      const handle = parseHandle(state, item.checkpointDir);
      if (typeof handle === "string") return { error: `cannot resume: ${handle}` };
      const target = { runId: handle.run_id, toolCallId: handle.tool_call_id, ...options(handle.steps) };
      return leg(item.checkpointDir, handle.steps, (agent) =>
        decision === "approve"
          ? agent.approveToolCallGenerate(target)
          : agent.declineToolCallGenerate({ ...target, reason: decisionText("deny") }),
      );
    },
  };
}
