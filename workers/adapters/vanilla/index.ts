/** `vanilla`: the hand-rolled baseline every comparison is made against (see README.md). */
import type { Adapter } from "../../../contract/adapter.ts";
import { buildVanillaRunner } from "./runner.ts";

// The public pieces: what `vanilla-multi` (multi.ts) and the hostile fixtures (the baseline with one rule broken) build on.
export { chatCompletion, LlmHttpError, requestBody, type ChatReply, type FetchLike, type Message, type WireToolCall } from "./model.ts";
export { arenaTools, toolMessage } from "./tools.ts";
export { assistantTurn, buildVanillaRunner, LegUsage, resumeMessages, runLeg, type LoopDeps } from "./runner.ts";

export const LIB_VERSION = "node:http (agentic-arena 0.1.0)";

const adapter: Adapter = {
  name: "vanilla",
  libVersion: LIB_VERSION,
  // Its HTTP is node:http (http.ts): its workers never load fetch's client.
  usesFetch: false,
  build: (arena, config, ctx) => buildVanillaRunner(arena, config, ctx),
};
export default adapter;
