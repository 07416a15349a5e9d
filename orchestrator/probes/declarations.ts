/**
 * What the probes know about each catalogued adapter that the adapter does not say about itself:
 * which have no resume API, and how each resumable one carries a run across the durable gap.
 * Both are declarations checked from both ends, so neither can drift silently: an adapter listed
 * without resume that turns out resumable, or one not listed that comes back unsupported, fails;
 * a `disk` store must leave files in checkpoint_dir and a `state` one must leave none.
 */

/** Adapters with no resume API: reported `unsupported` on pause arenas. */
export const WITHOUT_RESUME: ReadonlySet<string> = new Set([
  // The hand-rolled researcher → writer → editor pipeline has no pause (harness.md §8).
  "vanilla-multi",
  // Its Python twin (workers/adapters/vanilla-py/multi.py), likewise.
  "vanilla-py-multi",
  // The LangGraph researcher → writer → editor pipeline variant has no resume API.
  "langgraph-multi",
  // The Mastra workflow pipeline variant has no resume API (multi_agent has no pause tool).
  "mastra-multi",
  // smolagents has no durable pause: an agent's run cannot be stopped at a tool call and resumed
  // from data in another process (workers/adapters/smolagents/README.md).
  "smolagents",
  "smolagents-multi",
  // The Microsoft Agent Framework pipeline variant (three Agents on one AgentSession) has no resume API.
  "microsoft_af-multi",
  // The pydantic_ai researcher → writer → editor pipeline of sequential agent runs has no pause.
  "pydantic_ai-multi",
  // The LangGraph (Python) researcher → writer → editor pipeline variant has no resume API.
  "langgraph-py-multi",
]);

export const UNSUPPORTED_REASON = "arena requires the run to pause and resume, but this adapter does not implement the resume API";

/** How each resumable adapter carries a run across the durable gap. A resumable adapter missing here fails §14. */
export const CHECKPOINT_STORES: Readonly<Record<string, "disk" | "state">> = {
  vanilla: "state", // the transcript in resume_state (harness.md §6)
  "vanilla-py": "state", // the same transcript in resume_state (its Python twin)
  openai_agents: "state", // RunState JSON in resume_state
  "openai_agents-multi": "state",
  langgraph: "disk", // the SQLite checkpointer under checkpoint_dir
  ai_sdk: "state", // the AI SDK message list (JSON) in resume_state
  "ai_sdk-multi": "state",
  strands: "state", // the agent's session snapshot (JSON) in resume_state
  google_adk: "disk", // the session's events as JSON under checkpoint_dir
  "google_adk-multi": "disk",
  mastra: "disk", // Mastra's LibSQL storage under checkpoint_dir
  microsoft_af: "state", // the AgentSession.to_dict() snapshot (JSON) in resume_state
  pydantic_ai: "state", // the message history (ModelMessagesTypeAdapter JSON) in resume_state
  "google_adk-py": "disk", // the session's events as JSON under checkpoint_dir
  "google_adk-py-multi": "disk",
  "openai_agents-py": "state", // RunState.to_json() in resume_state
  "openai_agents-py-multi": "state",
  "langgraph-py": "disk", // the SqliteSaver database under checkpoint_dir
  // fixtures
  litterbug: "disk",
};
