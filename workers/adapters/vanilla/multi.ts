/**
 * `vanilla-multi`: the hand-rolled researcher → writer → editor pipeline (harness.md §8), the
 * baseline for multi-agent entries. One shared history, one client, one budget of
 * `max_tool_iterations` LLM calls for the whole item.
 */
import { specsFor } from "../../../contract/tools/registry.ts";
import type { Json } from "../../../contract/protocol.ts";
import { chatCompletion } from "./model.ts";
import type { Adapter } from "../../../contract/adapter.ts";
import { LIB_VERSION } from "./index.ts";
import { assistantTurn } from "./runner.ts";
import { PIPELINE_ROLES, type PipelineRole } from "../pipeline-roles.ts";


type Message = Record<string, Json>;

const adapter: Adapter = {
  name: "vanilla-multi",
  libVersion: LIB_VERSION,
  build(arena, config, ctx) {
    const specs = specsFor(arena.tools);
    const system = (role: PipelineRole): Message => ({
      role: "system",
      content: `${arena.systemPrompt}\n\n${PIPELINE_ROLES[role]}`,
    });
    return {
      async run(item) {
        const history: Message[] = [{ role: "user", content: item.input }];
        const toolCalls: { name: string; arguments: string }[] = [];
        let promptTokens = 0;
        let completionTokens = 0;
        let calls = 0;
        let lastContent = "";
        const call = async (role: PipelineRole, withTools: boolean) => {
          const body: Record<string, unknown> = {
            model: config.model,
            messages: [system(role), ...history],
            temperature: config.temperature,
            stream: false,
          };
          if (withTools) {
            body.tools = specs;
            body.tool_choice = "auto";
          }
          const reply = await chatCompletion(config, body);
          calls += 1;
          promptTokens += reply.promptTokens;
          completionTokens += reply.completionTokens;
          return reply;
        };
        const usage = () => ({ prompt_tokens: promptTokens, completion_tokens: completionTokens, llm_calls: calls });

        let researched = false;
        while (calls < config.maxToolIterations) {
          const reply = await call("researcher", true);
          lastContent = reply.content || lastContent;
          if (reply.toolCalls.length === 0) {
            researched = true;
            break;
          }
          history.push(assistantTurn(reply));
          for (const c of reply.toolCalls) {
            toolCalls.push({ name: c.name, arguments: c.arguments });
            history.push({ role: "tool", tool_call_id: c.id, content: ctx.tools.dispatch(c.name, c.arguments) });
          }
        }
        if (!researched) {
          return { output_text: lastContent, tool_calls: toolCalls, ...usage(), error: "max tool iterations exceeded" };
        }
        if (lastContent) history.push({ role: "assistant", content: lastContent });
        for (const role of ["writer", "editor"] as const) {
          if (calls >= config.maxToolIterations) break;
          const reply = await call(role, false);
          if (reply.content) {
            lastContent = reply.content;
            history.push({ role: "assistant", content: reply.content });
          }
        }
        return { output_text: lastContent, tool_calls: toolCalls, ...usage() };
      },
    };
  },
};
export default adapter;
