/**
 * `strands`: one agent on the Strands Agents TypeScript SDK (@strands-agents/sdk), run by the SDK's
 * own loop over its OpenAI provider in Chat Completions mode, pointed at the gateway. See README.md
 * for how each shared control is wired and what the SDK could not do.
 */
import type { Adapter, Runner } from "../../../contract/adapter.ts";
import { chatModel, sdkVersion } from "./model.ts";
import { buildStrandsRunner } from "./runner.ts";

const adapter: Adapter = {
  name: "strands",
  libVersion: sdkVersion,
  build(arena, config, ctx): Runner {
    return buildStrandsRunner({ arena, config, ctx, model: chatModel(config) });
  },
};
export default adapter;
