/**
 * Writes workers/python/arena_host/protocol.schema.json: what the Python worker host validates,
 * exported from the zod schemas of contract/protocol.ts by zod's own JSON Schema export, so the
 * two hosts cannot drift apart by a hand edit (tests/hosts/protocol-schema.test.ts fails while
 * the file is stale).
 *
 *   node scripts/protocol-schema.ts
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { AgentResultSchema, ToWorkerSchema } from "../contract/protocol.ts";

export const PYTHON_SCHEMA_FILE = fileURLToPath(new URL("../workers/python/arena_host/protocol.schema.json", import.meta.url));

/** `io: "input"`: what a message may look like before zod fills in defaults (the defaults are kept as `default`). */
export function pythonProtocolSchema(): string {
  const schemas = {
    toWorker: z.toJSONSchema(ToWorkerSchema, { io: "input" }),
    agentResult: z.toJSONSchema(AgentResultSchema, { io: "input" }),
  };
  return `${JSON.stringify(schemas, null, 1)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(PYTHON_SCHEMA_FILE, pythonProtocolSchema());
  process.stdout.write(`${PYTHON_SCHEMA_FILE}\n`);
}
