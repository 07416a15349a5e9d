/**
 * Writes workers/python/arena_tools/definitions.json from the canonical TypeScript tools
 * (contract/tools/export.ts): the Python tools read their names, texts and parameters there.
 * tests/tools/python-definitions.test.ts fails while the committed file is stale.
 *
 *   node scripts/tool-definitions.ts        (pnpm docs:tools)
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderToolDefinitions, TOOL_DEFINITIONS_FILE } from "../contract/tools/export.ts";

writeFileSync(path.resolve(import.meta.dirname, "..", TOOL_DEFINITIONS_FILE), renderToolDefinitions());
process.stdout.write(`${TOOL_DEFINITIONS_FILE}\n`);
