/**
 * The canonical tool definitions as plain data, for implementations that cannot import this
 * TypeScript (the Python twin in workers/python/arena_tools/ reads the file this renders). Only
 * data leaves here — names, texts, parameter schemas, pause and support roles, the room table —
 * so nothing about a tool is ever written down a second time by hand.
 */
import { CANONICAL_TOOLS, TOOL_NAMES } from "./canonical.ts";
import { CONTROL_TOOLS, HANDOFF_PREFIX } from "./registry.ts";
import { ROOMS } from "./rooms.ts";
import { MAX_ITERATIONS_ERROR, PAUSED_SIBLING_TEXT, PIPELINE_ROLES, decisionText } from "../texts.ts";

/** Where the rendered file lives, relative to the repository root. */
export const TOOL_DEFINITIONS_FILE = "workers/python/arena_tools/definitions.json";

/** The command that writes {@link TOOL_DEFINITIONS_FILE}; named in the file so a reader knows not to edit it. */
export const TOOL_DEFINITIONS_COMMAND = "node scripts/tool-definitions.ts";

export interface ExportedParameter {
  readonly name: string;
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
  /** Present only when the definition declares one (`search.k`). */
  readonly default?: number;
}

export interface ExportedTool {
  readonly name: string;
  readonly description: string;
  /** Declaration order, which is the advertised order of `properties`. */
  readonly parameters: readonly ExportedParameter[];
  /** The argument a suspend tool asks the human about; null for a tool that does not pause. */
  readonly pause_request: string | null;
  /** Why the harness cannot run an arena declaring this tool; null when it can. */
  readonly unsupported: string | null;
}

export interface ExportedDefinitions {
  readonly generated_by: string;
  /** Registry (= advertised) order. */
  readonly tools: readonly ExportedTool[];
  readonly control_tools: readonly string[];
  readonly handoff_prefix: string;
  readonly rooms: readonly { id: string; name: string; capacity: number; taken: readonly string[] }[];
  /** The contract's texts an adapter puts on the wire or in a result (contract/texts.ts). */
  readonly texts: ExportedTexts;
}

export interface ExportedTexts {
  readonly max_iterations_error: string;
  readonly paused_sibling_text: string;
  /** `decisionText` with `{decision}` where the decision string goes. */
  readonly decision_template: string;
  readonly pipeline_roles: Readonly<Record<string, string>>;
}

export function toolDefinitionsData(): ExportedDefinitions {
  const tools = TOOL_NAMES.map((name): ExportedTool => {
    const tool = CANONICAL_TOOLS[name];
    const parameters = Object.entries(tool.parameters).map(
      ([param, p]): ExportedParameter => ({
        name: param,
        type: p.type,
        description: p.description,
        required: p.required === true,
        ...(p.default === undefined ? {} : { default: p.default }),
      }),
    );
    return {
      name,
      description: tool.description,
      parameters,
      pause_request: tool.pause?.request ?? null,
      unsupported: tool.unsupported ?? null,
    };
  });
  return {
    generated_by: TOOL_DEFINITIONS_COMMAND,
    tools,
    control_tools: [...CONTROL_TOOLS],
    handoff_prefix: HANDOFF_PREFIX,
    rooms: ROOMS.map((r) => ({ id: r.id, name: r.name, capacity: r.capacity, taken: [...r.taken] })),
    texts: {
      max_iterations_error: MAX_ITERATIONS_ERROR,
      paused_sibling_text: PAUSED_SIBLING_TEXT,
      decision_template: decisionText("{decision}"),
      pipeline_roles: { ...PIPELINE_ROLES },
    },
  };
}

/** The file's exact text: two-space JSON with a final newline, so a stale copy shows as a diff. */
export function renderToolDefinitions(): string {
  return `${JSON.stringify(toolDefinitionsData(), null, 2)}\n`;
}
