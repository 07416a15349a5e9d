/** `arena bench`: every arena × every adapter (default mock mode: the embedded gateway, no key needed). */
import type { Command } from "../command.ts";
import { RUN_FLAGS, runFlow } from "../run-flow.ts";

export const benchCommand: Command = {
  name: "bench",
  summary: "every arena × every available adapter (mock by default: no key needed)",
  common: ["arenas-dir", "corpus"],
  flags: RUN_FLAGS,
  run: (ctx) => runFlow(ctx),
};
