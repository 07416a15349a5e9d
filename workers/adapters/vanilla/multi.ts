/**
 * `vanilla-multi`: the hand-rolled researcher → writer → editor pipeline (harness.md §8), the
 * baseline for multi-agent entries. One shared history, one client, one budget of
 * `max_tool_iterations` LLM calls for the whole item. Built only on what `index.ts` exports.
 */
import type { Adapter } from "../../../contract/adapter.ts";
import { MAX_ITERATIONS_ERROR, PIPELINE_ROLES, stagePrompt, type PipelineRole } from "../../../contract/texts.ts";
import { arenaTools, assistantTurn, chatCompletion, LegUsage, LIB_VERSION, requestBody, toolMessage, type Message } from "./index.ts";

const adapter: Adapter = {
  name: "vanilla-multi",
  libVersion: LIB_VERSION,
  // Its HTTP is node:http (http.ts): its workers never load fetch's client.
  usesFetch: false,
  build(arena, config, ctx) {
    const specs = arenaTools(arena);
    const system = (role: PipelineRole): Message => ({ role: "system", content: stagePrompt(arena.systemPrompt, PIPELINE_ROLES[role]) });
    return {
      async run(item) {
        const history: Message[] = [{ role: "user", content: item.input }];
        const toolCalls: { name: string; arguments: string }[] = [];
        const usage = new LegUsage();
        let lastContent = "";
        // Only the researcher gets tools; writer and editor are called without `tools`/`tool_choice`.
        const call = async (role: PipelineRole, withTools: boolean) =>
          usage.add(await chatCompletion(config, requestBody(config, [system(role), ...history], withTools ? specs : undefined)));

        let researched = false;
        while (usage.calls < config.maxToolIterations) {
          const reply = await call("researcher", true);
          lastContent = reply.content || lastContent;
          if (reply.toolCalls.length === 0) {
            researched = true;
            break;
          }
          history.push(assistantTurn(reply));
          for (const c of reply.toolCalls) {
            toolCalls.push({ name: c.name, arguments: c.arguments });
            history.push(toolMessage(ctx.tools, c));
          }
        }
        if (!researched) {
          return { output_text: lastContent, tool_calls: toolCalls, ...usage.report(), error: MAX_ITERATIONS_ERROR };
        }
        if (lastContent) history.push({ role: "assistant", content: lastContent });
        for (const role of ["writer", "editor"] as const) {
          if (usage.calls >= config.maxToolIterations) break;
          const reply = await call(role, false);
          if (reply.content) {
            lastContent = reply.content;
            history.push({ role: "assistant", content: reply.content });
          }
        }
        return { output_text: lastContent, tool_calls: toolCalls, ...usage.report() };
      },
    };
  },
};
export default adapter;
