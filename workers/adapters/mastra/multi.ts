/**
 * `mastra-multi`: the researcher → writer → editor pipeline (harness.md §8) as a Mastra workflow of
 * three steps, each one Mastra Agent carrying the arena prompt plus its role text. Only the
 * researcher holds the arena's tools; the history (the question, the researcher's tool turns and
 * answer, the draft) flows from step to step as the step's output. One ledger and one budget of
 * `max_tool_iterations` model calls cover the whole item, as in the `vanilla-multi` baseline.
 * Uses only the parent adapter's public pieces.
 */
import { Agent } from "@mastra/core/agent";
import { createStep, createWorkflow } from "@mastra/core/workflows";
import { z } from "zod";
import type { Adapter, Runner } from "../../../contract/adapter.ts";
import type { AgentResultInput } from "../../../contract/protocol.ts";
import { PIPELINE_ROLES, type PipelineRole } from "../../../contract/texts.ts";
import { mastraVersion } from "./index.ts";
import { LegLedger } from "./ledger.ts";
import { gatewayModel, modelSettings } from "./model.ts";
import { legError } from "./outcome.ts";
import { ITERATIONS_EXCEEDED } from "./runner.ts";
import { canonicalTools } from "./tools.ts";

const Stage = z.object({ history: z.array(z.any()), error: z.string().nullable() });
type StageData = z.infer<typeof Stage>;

const adapter: Adapter = {
  name: "mastra-multi",
  libVersion: mastraVersion,
  build(arena, config, ctx): Runner {
    const budget = config.maxToolIterations;
    return {
      async run(item): Promise<AgentResultInput> {
        const ledger = new LegLedger();
        const agent = (role: PipelineRole) =>
          new Agent({
            id: role,
            name: role,
            instructions: `${arena.systemPrompt}\n\n${PIPELINE_ROLES[role]}`,
            model: gatewayModel(config),
            tools: role === "researcher" ? canonicalTools(arena.tools, ctx.tools, ledger) : {},
            inputProcessors: [ledger.processor as never],
          });
        const stage = (role: PipelineRole) =>
          createStep({
            id: role,
            inputSchema: Stage,
            outputSchema: Stage,
            execute: async ({ inputData }): Promise<StageData> => {
              // The budget is the item's: a stage that would exceed it is skipped, as the baseline does.
              const left = budget - ledger.llmCalls;
              if (inputData.error !== null || left <= 0) return inputData;
              const result: any = await agent(role).generate(inputData.history, { maxSteps: left, modelSettings: modelSettings(config) });
              if (result.error) return { ...inputData, error: legError(result.error) };
              if (role === "researcher" && result.finishReason === "tool-calls") return { ...inputData, error: ITERATIONS_EXCEEDED };
              return { history: [...inputData.history, ...(result.response?.messages ?? [])], error: null };
            },
          });
        const workflow = createWorkflow({ id: "pipeline", inputSchema: Stage, outputSchema: Stage })
          .then(stage("researcher"))
          .then(stage("writer"))
          .then(stage("editor"))
          .commit();
        const run = await workflow.createRun();
        const done: any = await run.start({ inputData: { history: [{ role: "user", content: item.input }], error: null } });
        const usage = { tool_calls: ledger.calls, ...ledger.usage() };
        if (done.status !== "success") return { ...usage, output_text: ledger.lastText, error: legError(done.error ?? new Error(`workflow ${done.status}`)) };
        return { ...usage, output_text: ledger.lastText, error: done.result.error };
      },
    };
  },
};
export default adapter;
