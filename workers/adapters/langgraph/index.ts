/**
 * `langgraph`: LangGraph.js with LangChain's ChatOpenAI (see README.md). The framework is loaded
 * inside `build` only (through `loadFramework`), so the version can be read (and reported as not
 * installed) without it.
 */
import type { Adapter } from "../../../contract/adapter.ts";
import { versionOf } from "../package-version.ts";

/** `@langchain/langgraph <v> (…the packages it runs with)`, or `(not installed)`. */
export function langGraphVersion(): string {
  const graph = versionOf("@langchain/langgraph");
  if (graph === null) return "@langchain/langgraph (not installed)";
  const others = ["@langchain/openai", "@langchain/core", "@langchain/langgraph-checkpoint-sqlite"]
    .map((p) => `${p.replace("@langchain/", "")} ${versionOf(p) ?? "(not installed)"}`)
    .join(", ");
  return `@langchain/langgraph ${graph} (${others})`;
}

/**
 * The runner and the public pieces `langgraph-multi` (multi/) builds on — the model, the tools,
 * reading a leg off the message history, a failed leg's error text — loaded with the framework on
 * the first call, never at import.
 */
export async function loadFramework() {
  const [model, tools, history, runner] = await Promise.all([
    import("./model.ts"),
    import("./tools.ts"),
    import("./history.ts"),
    import("./runner.ts"),
  ]);
  return {
    chatModel: model.chatModel,
    canonicalTools: tools.canonicalTools,
    freshId: history.freshId,
    messageText: history.messageText,
    rawArgumentsById: history.rawArgumentsById,
    replyUsage: history.replyUsage,
    summariseLeg: history.summariseLeg,
    legError: runner.legError,
    buildLangGraphRunner: runner.buildLangGraphRunner,
  };
}

export type LangGraphFramework = Awaited<ReturnType<typeof loadFramework>>;

const adapter: Adapter = {
  name: "langgraph",
  libVersion: langGraphVersion,
  async build(arena, config, ctx) {
    const { buildLangGraphRunner } = await loadFramework();
    return buildLangGraphRunner(arena, config, ctx);
  },
};
export default adapter;
