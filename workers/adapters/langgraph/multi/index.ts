/**
 * `langgraph-multi`: the researcher → writer → editor pipeline as a LangGraph graph (see
 * README.md), the LangGraph counterpart of `vanilla-multi` on multi_agent.
 */
import type { Adapter } from "../../../../contract/adapter.ts";
import { langGraphVersion } from "../index.ts";

const adapter: Adapter = {
  name: "langgraph-multi",
  libVersion: langGraphVersion,
  async build(arena, config, ctx) {
    const { buildPipelineRunner } = await import("./runner.ts");
    return buildPipelineRunner(arena, config, ctx);
  },
};
export default adapter;
