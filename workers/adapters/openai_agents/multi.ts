/**
 * `openai_agents-multi`: the researcher → writer → editor pipeline as real SDK handoffs (variant
 * entry for `multi_agent`). Each stage is its own Agent carrying the arena prompt plus a role
 * instruction; only the researcher holds the arena's tools; the SDK advertises each handoff as a
 * `transfer_to_<agent>` tool and carries the whole conversation across it. One run, so one
 * iteration budget (`maxTurns`) covers every stage, as in the `vanilla-multi` baseline. Built only
 * on what `index.ts` exports.
 */
import { Agent } from "@openai/agents";
import type { Adapter, AdapterConfig, ArenaSpec, BuildContext, Runner } from "../../../contract/adapter.ts";
import { PIPELINE_ROLES, stagePrompt } from "../../../contract/texts.ts";
import { arenaTools, chatModel, legRunner, modelSettings, sdkVersion } from "./index.ts";

/** The pipeline's role texts, with the handoff named where a stage hands off (the editor's is the shared one). */
export const ROLES = {
  researcher:
    "You are the researcher on this pipeline. Use the `search` tool to gather the facts the brief needs, then hand off to the writer. Do not write the brief yourself.",
  writer:
    "You are the writer on this pipeline. Using only the facts already gathered above, write the brief, then hand off to the editor.",
  editor: PIPELINE_ROLES.editor,
} as const;

/**
 * The pipeline on one model object (one client) for the three stages, like the baseline
 * pipeline's one client. Exported so a fixture can run the same pipeline over its own transport.
 */
export function pipelineRunner(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext, model = chatModel(config)): Runner {
  const stage = (role: keyof typeof ROLES, extra: Partial<ConstructorParameters<typeof Agent>[0]> = {}) =>
    new Agent({
      name: role,
      instructions: stagePrompt(arena.systemPrompt, ROLES[role]),
      model,
      modelSettings: modelSettings(config),
      ...extra,
    });
  const editor = stage("editor");
  const writer = stage("writer", { handoffs: [editor] });
  const researcher = stage("researcher", { tools: arenaTools(arena.tools, ctx.tools), handoffs: [writer] });
  return legRunner({ config, agent: researcher });
}

const adapter: Adapter = {
  name: "openai_agents-multi",
  libVersion: sdkVersion,
  build: async (arena, config, ctx) => pipelineRunner(arena, config, ctx),
};
export default adapter;
