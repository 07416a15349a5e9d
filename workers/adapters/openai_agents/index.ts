/**
 * `openai_agents`: one agent on the OpenAI Agents SDK (@openai/agents), run by the SDK's own
 * loop over a Chat Completions model pointed at the gateway. See README.md for how each shared
 * control is wired and what the SDK could not do.
 */
import { findPackageJSON } from "node:module";
import { readFileSync } from "node:fs";
import { Agent } from "@openai/agents";
import type { Adapter, Runner } from "../../../contract/adapter.ts";
import { chatModel, modelSettings } from "./model.ts";
import { legRunner } from "./runner.ts";
import { arenaTools } from "./tools.ts";

// The public pieces `openai_agents-multi` (multi.ts) builds on.
export { arenaTools, chatModel, legRunner, modelSettings };
export type { LegOptions } from "./runner.ts";

/** `@openai/agents <version>`; `(not installed)` when the SDK is absent (never throws). */
export function sdkVersion(): string {
  try {
    const file = findPackageJSON("@openai/agents", import.meta.url);
    const version = file ? JSON.parse(readFileSync(file, "utf8")).version : undefined;
    return version ? `@openai/agents ${version}` : "(not installed)";
  } catch {
    return "(not installed)";
  }
}

/** The agent's name is part of the serialised RunState: a resume must rebuild the same one. */
export const AGENT_NAME = "assistant";

const adapter: Adapter = {
  name: "openai_agents",
  libVersion: sdkVersion,
  async build(arena, config, ctx): Promise<Runner> {
    const agent = new Agent({
      name: AGENT_NAME,
      // The arena's instruction verbatim: the SDK sends it as the first (system) message.
      instructions: arena.systemPrompt,
      model: chatModel(config),
      modelSettings: modelSettings(config),
      tools: arenaTools(arena.tools, ctx.tools),
    });
    return legRunner({ config, agent });
  },
};
export default adapter;
