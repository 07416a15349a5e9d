/** The canonical tools: declared once (specs), selected per arena (registry), run once (dispatch). */
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
  isControlTool,
  isSuspendTool,
  namesFor,
  specsFor,
  SUSPEND_TOOLS,
  TOOL_NAMES,
} from "./registry.ts";
export { dispatch, type ToolEnv } from "./dispatch.ts";
export { calculator } from "@agentic-arena/py-semantics/calculator";
export { CorpusError, DEFAULT_CORPUS_PATH, loadCorpus, search, type Corpus, type CorpusEntry } from "./search.ts";
export { bookRoom, searchRooms } from "./rooms.ts";
