/**
 * The real adapters, by name. This is data (a name, a module path, an arena scope), so the
 * orchestrator can plan a run without importing any adapter code: modules are only ever loaded
 * inside a worker process. Hostile fixtures are never listed here.
 */
import { fileURLToPath } from "node:url";
import { runtimeOf, type HostRuntime } from "./runtime.ts";

export interface CatalogEntry {
  readonly name: string;
  /** Absolute path of the adapter module (its default export is the Adapter; a `.py` module's `build`). */
  readonly module: string;
  /** The worker host it runs on, read off `module` (contract/runtime.ts): `python` for a `.py` module. */
  readonly runtime: HostRuntime;
  /** A variant entry: `--framework all` runs it only on these arenas (naming it runs it anywhere). */
  readonly arenas?: readonly string[];
  /**
   * The framework packages the adapter runs on (empty: none beyond Node). Data, so `arena
   * adapters` can say whether they are installed by resolving them, without loading the adapter.
   */
  readonly packages: readonly string[];
  /** How the adapter pauses and survives the worker's restart (its README says more). */
  readonly pause: string;
}

interface EntryData {
  readonly packages: readonly string[];
  readonly pause: string;
  readonly arenas?: readonly string[];
  /** Relative to workers/adapters/: a variant kept in its parent's folder; default `<name>/index.ts`. */
  readonly file?: string;
}

function entry(name: string, data: EntryData): CatalogEntry {
  const module = fileURLToPath(new URL(`../workers/adapters/${data.file ?? `${name}/index.ts`}`, import.meta.url));
  const base = { name, module, runtime: runtimeOf({ module }), packages: data.packages, pause: data.pause };
  return data.arenas ? { ...base, arenas: data.arenas } : base;
}

const OPENAI_AGENTS = ["@openai/agents"];
const LANGGRAPH = ["@langchain/langgraph", "@langchain/openai", "@langchain/core", "@langchain/langgraph-checkpoint-sqlite"];
const AI_SDK = ["ai", "@ai-sdk/openai-compatible"];
const GOOGLE_ADK = ["@google/adk"];
const SMOLAGENTS = ["smolagents"];
const MICROSOFT_AF = ["agent-framework-core", "agent-framework-openai"];
const PYDANTIC_AI = ["pydantic-ai-slim", "openai"];
const GOOGLE_ADK_PY = ["google-adk"];
const OPENAI_AGENTS_PY = ["openai-agents"];
const LANGGRAPH_PY = ["langgraph", "langchain-openai", "langchain-core", "langgraph-checkpoint-sqlite"];
const PIPELINE = "none (pipeline: no resume, unsupported on pause arenas)";

export const ADAPTER_CATALOG: readonly CatalogEntry[] = [
  entry("vanilla", { packages: [], pause: "own loop stops at the pause tool; the transcript travels in resume_state" }),
  entry("vanilla-multi", { packages: [], pause: PIPELINE, arenas: ["multi_agent"], file: "vanilla/multi.ts" }),
  entry("openai_agents", { packages: OPENAI_AGENTS, pause: "needsApproval interruption; the SDK's RunState travels in resume_state" }),
  entry("openai_agents-multi", { packages: OPENAI_AGENTS, pause: "needsApproval through handoffs; RunState in resume_state", arenas: ["multi_agent"], file: "openai_agents/multi.ts" }),
  entry("langgraph", { packages: LANGGRAPH, pause: "interrupt(); SQLite checkpointer in checkpoint_dir, a handle in resume_state" }),
  entry("langgraph-multi", { packages: LANGGRAPH, pause: PIPELINE, arenas: ["multi_agent"], file: "langgraph/multi/index.ts" }),
  entry("ai_sdk", { packages: AI_SDK, pause: "toolApproval request; the SDK's messages travel in resume_state" }),
  entry("ai_sdk-multi", { packages: AI_SDK, pause: "toolApproval request in the lead agent; the messages travel in resume_state", arenas: ["multi_agent"], file: "ai_sdk/multi.ts" }),
  entry("strands", { packages: ["@strands-agents/sdk"], pause: "interrupt(); the agent's session snapshot travels in resume_state" }),
  entry("google_adk", { packages: GOOGLE_ADK, pause: "requireConfirmation; the session's events as JSON in checkpoint_dir, a handle in resume_state" }),
  entry("google_adk-multi", { packages: GOOGLE_ADK, pause: "requireConfirmation across a SequentialAgent; events in checkpoint_dir", arenas: ["multi_agent"], file: "google_adk/multi.ts" }),
  entry("mastra", { packages: ["@mastra/core", "@mastra/libsql"], pause: "requireApproval; LibSQL storage (mastra.db) in checkpoint_dir, a handle in resume_state" }),
  entry("mastra-multi", { packages: ["@mastra/core"], pause: PIPELINE, arenas: ["multi_agent"], file: "mastra/multi.ts" }),
  entry("vanilla-py", { packages: [], pause: "own loop stops at the pause tool; the transcript travels in resume_state", file: "vanilla-py/index.py" }),
  entry("vanilla-py-multi", { packages: [], pause: PIPELINE, arenas: ["multi_agent"], file: "vanilla-py/multi.py" }),
  entry("pydantic_ai", { packages: PYDANTIC_AI, pause: "CallDeferred deferred tools; the message history (ModelMessagesTypeAdapter JSON) travels in resume_state", file: "pydantic_ai/index.py" }),
  entry("pydantic_ai-multi", { packages: PYDANTIC_AI, pause: PIPELINE, arenas: ["multi_agent"], file: "pydantic_ai/multi.py" }),
  entry("smolagents", { packages: SMOLAGENTS, pause: "none (no durable pause in smolagents: no resume, unsupported on pause arenas)", file: "smolagents/index.py" }),
  entry("smolagents-multi", { packages: SMOLAGENTS, pause: "none (managed agents; no durable pause in smolagents: no resume, unsupported on pause arenas)", arenas: ["multi_agent"], file: "smolagents/multi.py" }),
  entry("microsoft_af", { packages: MICROSOFT_AF, pause: "approval_mode=\"always_require\"; the AgentSession.to_dict() snapshot (history + approval state) travels in resume_state", file: "microsoft_af/index.py" }),
  entry("microsoft_af-multi", { packages: MICROSOFT_AF, pause: PIPELINE, arenas: ["multi_agent"], file: "microsoft_af/multi.py" }),
  entry("google_adk-py", { packages: GOOGLE_ADK_PY, pause: "tool confirmation (request_confirmation); the session's events as JSON in checkpoint_dir, a handle in resume_state", file: "google_adk-py/index.py" }),
  entry("google_adk-py-multi", { packages: GOOGLE_ADK_PY, pause: "tool confirmation across a SequentialAgent; events in checkpoint_dir", arenas: ["multi_agent"], file: "google_adk-py/multi.py" }),
  entry("openai_agents-py", { packages: OPENAI_AGENTS_PY, pause: "needs_approval interruption; the SDK's RunState.to_json() travels in resume_state", file: "openai_agents-py/index.py" }),
  entry("openai_agents-py-multi", { packages: OPENAI_AGENTS_PY, pause: "needs_approval through handoffs; RunState.to_json() in resume_state", arenas: ["multi_agent"], file: "openai_agents-py/multi.py" }),
  entry("langgraph-py", { packages: LANGGRAPH_PY, pause: "interrupt(); SqliteSaver in checkpoint_dir, a handle in resume_state", file: "langgraph-py/index.py" }),
  entry("langgraph-py-multi", { packages: LANGGRAPH_PY, pause: PIPELINE, arenas: ["multi_agent"], file: "langgraph-py/multi.py" }),
];

export function findAdapter(name: string): CatalogEntry | undefined {
  return ADAPTER_CATALOG.find((e) => e.name === name);
}

/**
 * `--framework` names that stand for several entries: `all`, and one per host runtime (a machine
 * without the Python environment, or a measurement of one language's matrix). Variants in a group
 * keep to their own arenas, as they do under `all`.
 */
const GROUPS: Readonly<Record<string, (e: CatalogEntry) => boolean>> = {
  all: () => true,
  "all-ts": (e) => e.runtime === "node",
  "all-py": (e) => e.runtime === "python",
};

export const ADAPTER_GROUP_NAMES: readonly string[] = Object.keys(GROUPS);

/** The entries a group name stands for, in catalogue order; `undefined` for any other name. */
export function adapterGroup(name: string): CatalogEntry[] | undefined {
  const member = Object.hasOwn(GROUPS, name) ? GROUPS[name] : undefined;
  return member ? ADAPTER_CATALOG.filter(member) : undefined;
}
