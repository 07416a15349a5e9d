/**
 * The Python host validates against workers/python/arena_host/protocol.schema.json, which is
 * exported from contract/protocol.ts: the committed file must be what the zod schemas export
 * today, or the two hosts would be held to different protocols.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PYTHON_SCHEMA_FILE, pythonProtocolSchema } from "../../scripts/protocol-schema.ts";

describe("the Python host's protocol schema", () => {
  it("is current with contract/protocol.ts (regenerate: node scripts/protocol-schema.ts)", () => {
    expect(readFileSync(PYTHON_SCHEMA_FILE, "utf8")).toBe(pythonProtocolSchema());
  });

  it("holds every message type the orchestrator sends, and the result's defaults", () => {
    const schema = JSON.parse(pythonProtocolSchema()) as { toWorker: { oneOf: { properties: { type: { const: string } } }[] }; agentResult: { properties: Record<string, { default?: unknown }> } };
    expect(schema.toWorker.oneOf.map((o) => o.properties.type.const)).toEqual(["build", "run", "resume", "shutdown"]);
    expect(schema.agentResult.properties.suspended?.default).toBe(false);
  });
});
