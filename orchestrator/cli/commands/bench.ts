/** `arena bench`: every arena × every adapter (default mock mode: the embedded gateway, no key needed). */
import type { CommandContext } from "../command.ts";
import { runFlow } from "../run-flow.ts";

export function run(ctx: CommandContext): Promise<number> {
  const items = Array.isArray(ctx.flags.item) ? (ctx.flags.item as string[]) : [];
  return runFlow(ctx, { command: "bench", items });
}
