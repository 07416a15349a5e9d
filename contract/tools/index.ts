/** The canonical tools: each defined once (its own file, collected in canonical.ts), advertised (specs), selected per arena (registry), run by one runner (dispatch). */
export { defineTool, type Arguments, type ParameterDefinition, type Parameters, type ToolDefinition } from "./define.ts";
export { CANONICAL_TOOLS, toolDefinition } from "./canonical.ts";
export {
  CANONICAL_SPECS,
  descriptionOf,
  isToolName,
  jsonSchemaOf,
  parameterList,
  toolSpec,
  toolSpecJson,
  type ParameterInfo,
  type ParametersSchema,
  type ParameterSchema,
  type ParameterType,
  type ToolName,
  type ToolSpec,
} from "./specs.ts";
export {
  checkDeclaredDelegates,
  CONTROL_TOOLS,
  DelegateCollisionError,
  HANDOFF_PREFIX,
  harnessUnsupported,
  isControlTool,
  isSuspendTool,
  namesFor,
  pauseRequestOf,
  specsFor,
  SUSPEND_TOOLS,
  TOOL_NAMES,
} from "./registry.ts";
export { dispatch, type ToolEnv } from "./dispatch.ts";
export { calculator } from "@agentic-arena/py-semantics/calculator";
export { CorpusError, DEFAULT_CORPUS_PATH, loadCorpus, search, type Corpus, type CorpusEntry } from "./search.ts";
export { searchRooms } from "./search_rooms.ts";
export { bookRoom } from "./book_room.ts";
