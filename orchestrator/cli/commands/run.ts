/** `arena run`: selected arenas × frameworks, in mock or live mode (or the rest of a recorded run). */
import type { CommandContext } from "../command.ts";
import { runFlow } from "../run-flow.ts";

export function run(ctx: CommandContext): Promise<number> {
  const items = Array.isArray(ctx.flags.item) ? (ctx.flags.item as string[]) : [];
  return runFlow(ctx, { command: "run", items });
}
