/**
 * `openai_agents`: one agent on the OpenAI Agents SDK (@openai/agents), run by the SDK's own
 * loop over a Chat Completions model pointed at the gateway. See README.md for how each shared
 * control is wired and what the SDK could not do.
 */
import { Agent } from "@openai/agents";
import type { Adapter, BuildContext, Runner } from "../../../contract/adapter.ts";
import type { AdapterConfig, ArenaSpec } from "../../../contract/protocol.ts";
import { chatModel, sdkVersion } from "./model.ts";
import { resumeLeg, runLeg, type LegOptions } from "./runner.ts";
import { arenaTools } from "./tools.ts";

/** The agent's name is part of the serialised RunState: a resume must rebuild the same one. */
export const AGENT_NAME = "assistant";

export async function buildAgent(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext): Promise<Agent<any, any>> {
  return new Agent({
    name: AGENT_NAME,
    // The arena's instruction verbatim: the SDK sends it as the first (system) message.
    instructions: arena.systemPrompt,
    model: await chatModel(config),
    // Only the shared temperature: no other sampling parameter reaches the wire.
    modelSettings: { temperature: config.temperature },
    tools: arenaTools(arena.tools, ctx.tools),
  });
}

const adapter: Adapter = {
  name: "openai_agents",
  libVersion: sdkVersion,
  async build(arena, config, ctx): Promise<Runner> {
    const options: LegOptions = { config, agent: await buildAgent(arena, config, ctx) };
    return {
      run: (item) => runLeg(options, item.input),
      resume: (_item, state, decision) => resumeLeg(options, state, decision),
    };
  },
};
export default adapter;
