/**
 * `google_adk-multi`: the researcher → writer → editor pipeline (harness.md §8) as ADK sub-agents:
 * a `SequentialAgent` over three `LlmAgent`s, each carrying the arena prompt plus its role text,
 * only the researcher holding the arena's tools. One invocation, so one `maxLlmCalls` budget covers
 * every stage, as in the `vanilla-multi` baseline. Everything below the stage definitions is the
 * `google_adk` adapter's own (model class, tools, runner). See README.md, "google_adk-multi".
 */
import type { Adapter } from "../../../contract/adapter.ts";
import { PIPELINE_ROLES, type PipelineRole } from "../../../contract/texts.ts";
import { adkVersion, chatModel } from "./index.ts";

const adapter: Adapter = {
  name: "google_adk-multi",
  libVersion: adkVersion,
  async build(arena, config, ctx) {
    const { LlmAgent, SequentialAgent } = await import("@google/adk");
    const { arenaTools } = await import("./tools.ts");
    const { buildAdkRunner } = await import("./runner.ts");
    // One model object for the three stages, like the baseline pipeline's one client.
    const model = await chatModel(config);
    const stage = (role: PipelineRole, withTools: boolean) =>
      new LlmAgent({
        name: role,
        model,
        instruction: () => `${arena.systemPrompt}\n\n${PIPELINE_ROLES[role]}`,
        // No transfer targets: ADK then adds neither its identity text nor a transfer_to_agent tool.
        disallowTransferToParent: true,
        disallowTransferToPeers: true,
        generateContentConfig: { temperature: config.temperature },
        tools: withTools ? arenaTools(arena.tools, ctx.tools) : [],
      });
    const root = new SequentialAgent({
      name: "pipeline",
      subAgents: [stage("researcher", true), stage("writer", false), stage("editor", false)],
    });
    return buildAdkRunner({ config, root });
  },
};
export default adapter;
