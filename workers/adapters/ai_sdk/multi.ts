/**
 * `ai_sdk-multi`: the researcher → writer → editor pipeline in the AI SDK's own multi-agent shape,
 * sub-agents as tools (the SDK's "Subagents" pattern: a tool whose `execute` runs another agent).
 * The lead is the researcher: it holds the arena's tools and two delegates, `writer` and `editor`,
 * each a `ToolLoopAgent` of its own that reads the lead's conversation so far (the facts, then the
 * draft) and returns its reply as the tool result. One budget of `max_tool_iterations` model calls
 * covers every agent of the item, like the `vanilla-multi` baseline's. See README.md.
 */
import type { JSONSchema7, ModelMessage, StopCondition, ToolSet } from "ai";
import type { Adapter } from "../../../contract/adapter.ts";
import { PIPELINE_ROLES } from "../../../contract/texts.ts";
import { sdkVersion } from "./index.ts";
import type { LegLog } from "./leg.ts";
import type { LegPlan } from "./runner.ts";

/** The SDK and the parent's pieces, loaded in `build` only (the version must be readable without them). */
async function load() {
  const [ai, model, runner] = await Promise.all([import("ai"), import("./model.ts"), import("./runner.ts")]);
  return { ai, model, runner };
}
type Loaded = Awaited<ReturnType<typeof load>>;

export const DELEGATES = ["writer", "editor"] as const;

/** The lead's role: the baseline researcher's, plus the delegation the structure adds. */
export const LEAD_ROLE =
  "You are the researcher and the lead on this pipeline. Use the `search` tool to gather the facts the brief needs, then call the `writer` tool to have the brief drafted from them, then the `editor` tool to have the draft checked. Reply with the editor's brief and nothing else. Do not write the brief yourself.";

const DELEGATE_DESCRIPTIONS: Record<(typeof DELEGATES)[number], string> = {
  writer: "The writer on this pipeline: drafts the brief from the facts gathered so far in this conversation.",
  editor: "The editor on this pipeline: checks the draft in this conversation against the task and returns the final brief.",
};

/** A delegate's one parameter (a fresh object per tool: the SDK keeps a reference). */
function taskSchema(): JSONSchema7 {
  return { type: "object", properties: { task: { type: "string", description: "What to do, in a sentence." } }, required: ["task"] };
}

/** True once every agent together has started the item's budget of model calls. */
function budgetSpent(log: LegLog, budget: number): StopCondition<ToolSet> {
  return () => log.started >= budget;
}

function delegates({ ai, model }: Loaded, plan: Omit<LegPlan, "extraTools">, log: LegLog): ToolSet {
  const { arena, config } = plan;
  const budget = config.maxToolIterations;
  const tools: ToolSet = {};
  for (const role of DELEGATES) {
    const agent = new ai.ToolLoopAgent({
      model: model.chatModel(config, log.recordRaw),
      instructions: `${arena.systemPrompt}\n\n${PIPELINE_ROLES[role]}`,
      // No tools: the writer and editor work on what the conversation already holds.
      stopWhen: budgetSpent(log, budget),
      temperature: config.temperature,
      maxRetries: model.MAX_RETRIES,
      telemetry: { isEnabled: false },
    });
    tools[role] = ai.tool({
      description: DELEGATE_DESCRIPTIONS[role],
      inputSchema: ai.jsonSchema<{ task: string }>(taskSchema()),
      execute: async ({ task }, { messages }) => {
        // The lead stops right after this step once the budget is spent; this text reaches no model.
        if (log.started >= budget) return `Not run: the budget of ${budget} model calls is spent.`;
        // The lead's conversation up to this call (the SDK passes it without the system prompt),
        // so the sub-agent sees the facts and the draft; the task is the lead's instruction.
        const history: ModelMessage[] = [...messages, { role: "user", content: task }];
        return (await log.generate(agent, history, false)).text;
      },
    });
  }
  return tools;
}

const adapter: Adapter = {
  name: "ai_sdk-multi",
  libVersion: sdkVersion,
  delegates: DELEGATES,
  async build(arena, config, ctx) {
    const loaded = await load();
    const base = {
      arena,
      config,
      ctx,
      delegates: DELEGATES,
      instructions: `${arena.systemPrompt}\n\n${LEAD_ROLE}`,
      stopWhen: (log: LegLog) => budgetSpent(log, config.maxToolIterations),
    };
    return loaded.runner.buildRunner({ ...base, extraTools: (log) => delegates(loaded, base, log) });
  },
};
export default adapter;
