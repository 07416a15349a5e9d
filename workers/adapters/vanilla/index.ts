/** `vanilla`: the hand-rolled baseline every comparison is made against (see README.md). */
import type { Adapter, Runner } from "../../../contract/adapter.ts";
import { resumeMessages, runLeg, type LoopDeps, type Message } from "./runner.ts";
import type { AdapterConfig, ArenaSpec } from "../../../contract/protocol.ts";
import type { BuildContext } from "../../../contract/adapter.ts";

export const LIB_VERSION = "native fetch (agentic-arena 0.1.0)";

/** Exported so hostile fixtures can wrap the baseline with exactly one rule broken. */
export function buildVanillaRunner(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext, deps: LoopDeps = {}): Runner {
  return {
    run(item) {
      const messages: Message[] = [
        { role: "system", content: arena.systemPrompt },
        { role: "user", content: item.input },
      ];
      return runLeg(arena, config, ctx.tools, messages, deps);
    },
    async resume(_item, state, decision) {
      const messages = resumeMessages(state, decision);
      if (typeof messages === "string") return { error: messages };
      return runLeg(arena, config, ctx.tools, messages, deps);
    },
  };
}

const adapter: Adapter = {
  name: "vanilla",
  libVersion: LIB_VERSION,
  build: (arena, config, ctx) => buildVanillaRunner(arena, config, ctx),
};
export default adapter;
