/**
 * `langgraph`: LangGraph.js with LangChain's ChatOpenAI (see README.md). The framework is loaded
 * inside `build` only, so the version can be read (and reported as not installed) without it.
 */
import { createRequire } from "node:module";
import type { Adapter } from "../../../contract/adapter.ts";

const require = createRequire(import.meta.url);

function versionOf(pkg: string): string | null {
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}

/** `@langchain/langgraph <v> (…the packages it runs with)`, or `(not installed)`. */
export function langGraphVersion(): string {
  const graph = versionOf("@langchain/langgraph");
  if (graph === null) return "@langchain/langgraph (not installed)";
  const others = ["@langchain/openai", "@langchain/core", "@langchain/langgraph-checkpoint-sqlite"]
    .map((p) => `${p.replace("@langchain/", "")} ${versionOf(p) ?? "(not installed)"}`)
    .join(", ");
  return `@langchain/langgraph ${graph} (${others})`;
}

const adapter: Adapter = {
  name: "langgraph",
  libVersion: langGraphVersion,
  async build(arena, config, ctx) {
    const { buildLangGraphRunner } = await import("./runner.ts");
    return buildLangGraphRunner(arena, config, ctx);
  },
};
export default adapter;
