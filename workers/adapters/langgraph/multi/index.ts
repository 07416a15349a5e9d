/**
 * `langgraph-multi`: the researcher → writer → editor pipeline as a LangGraph graph (see
 * ../README.md), the LangGraph counterpart of `vanilla-multi` on multi_agent. Like its parent it
 * loads the framework inside `build` only.
 */
import type { Adapter } from "../../../../contract/adapter.ts";
import { langGraphVersion, loadFramework } from "../index.ts";

const adapter: Adapter = {
  name: "langgraph-multi",
  libVersion: langGraphVersion,
  async build(arena, config, ctx) {
    const [lg, { buildPipelineRunner }] = await Promise.all([loadFramework(), import("./runner.ts")]);
    return buildPipelineRunner(arena, config, ctx, lg);
  },
};
export default adapter;
