/**
 * `google_adk`: one `LlmAgent` on Google's Agent Development Kit for TypeScript (@google/adk), run
 * by ADK's own Runner over the Chat Completions model class in model.ts (ADK ships none). See
 * README.md for how each shared control is wired and what ADK could not do. ADK is loaded inside
 * `build` only, so the version can be read (and reported as not installed) without it.
 */
import { createRequire } from "node:module";
import type { Adapter, BuildContext } from "../../../contract/adapter.ts";
import type { AdapterConfig, ArenaSpec } from "../../../contract/protocol.ts";

const require = createRequire(import.meta.url);

/** `@google/adk <version>`, or `(not installed)`; never throws. */
export function adkVersion(): string {
  try {
    return `@google/adk ${(require("@google/adk/package.json") as { version: string }).version}`;
  } catch {
    return "@google/adk (not installed)";
  }
}

/** The model object every stage runs on: the gateway, the model, the per-attempt timeout. */
export async function chatModel(config: AdapterConfig) {
  const { ChatCompletionsLlm } = await import("./model.ts");
  return new ChatCompletionsLlm({
    model: config.model,
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    timeoutMs: config.requestTimeoutS * 1000,
  });
}

/** The session's events name their author: a resume must rebuild an agent of the same name. */
export const AGENT_NAME = "assistant";

export async function buildAgent(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext) {
  const { LlmAgent } = await import("@google/adk");
  const { arenaTools } = await import("./tools.ts");
  return new LlmAgent({
    name: AGENT_NAME,
    model: await chatModel(config),
    // A function, not a string: ADK fills `{name}` placeholders of a string instruction from the
    // session state (and fails on an unknown one); the arena prompt must reach the model verbatim.
    instruction: () => arena.systemPrompt,
    // With no transfer target ADK adds nothing to the prompt (otherwise: "You are an agent. Your
    // internal name is …" and a transfer_to_agent tool).
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
    // Only the shared temperature: no other sampling setting reaches the wire.
    generateContentConfig: { temperature: config.temperature },
    tools: arenaTools(arena.tools, ctx.tools),
  });
}

const adapter: Adapter = {
  name: "google_adk",
  libVersion: adkVersion,
  async build(arena, config, ctx) {
    const { buildAdkRunner } = await import("./runner.ts");
    return buildAdkRunner({ config, root: await buildAgent(arena, config, ctx) });
  },
};
export default adapter;
