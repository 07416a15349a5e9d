/**
 * What a native parse of the gateway's request bodies would save (issue 23, target 2c). The
 * gateway parses every body with Python's semantics (`parsePyJson`: ints kept apart from floats,
 * dict order as written); `JSON.parse` is native but loses both, and `JSON.parse` with a reviver
 * that reads each number's source text is the only native way to keep `1.0` apart from `1`. Times
 * the three on one chat request with three tools, CPU per parse, after a warm-up.
 *
 *   node scripts/json-parse.ts [--rounds N] [--parses N]   (defaults 3 and 20000)
 */
import { parseArgs } from "node:util";
import { parsePyJson, type PyValue } from "@agentic-arena/py-semantics";
import { parseCount } from "../orchestrator/config/values.ts";

const { values } = parseArgs({ options: { rounds: { type: "string" }, parses: { type: "string" } } });
const rounds = parseCount(values.rounds ?? "3", "--rounds");
const parses = parseCount(values.parses ?? "20000", "--parses");

const tool = (name: string) => ({
  type: "function",
  function: {
    name,
    description: `Look up ${name} in the corpus and return the matching records as JSON.`,
    parameters: { type: "object", properties: { query: { type: "string", description: "What to search for" }, limit: { type: "integer", minimum: 1, maximum: 20 } }, required: ["query"], additionalProperties: false },
  },
});
const body = JSON.stringify({
  model: "mock-model",
  temperature: 0,
  stream: false,
  messages: [
    { role: "system", content: "You are a careful assistant. Use the tools when a question needs data from the corpus; answer in one short paragraph." },
    { role: "user", content: "What is the population of the three largest cities in the dataset, and what is their sum? Give the exact figures." },
    { role: "assistant", content: null, tool_calls: [{ id: "call_abc123", type: "function", function: { name: "search", arguments: JSON.stringify({ query: "largest cities", limit: 3 }) } }] },
    { role: "tool", tool_call_id: "call_abc123", content: JSON.stringify([{ city: "Alpha", population: 1234567 }, { city: "Beta", population: 987654.5 }]) },
  ],
  tools: [tool("search"), tool("lookup"), tool("calculate")],
});

/** `JSON.parse` keeping Python's distinctions: a number's source text says int or float; objects become Maps. */
function parseWithSource(text: string): PyValue {
  return JSON.parse(text, (_key: string, value: unknown, context?: { source?: string }) => {
    if (typeof value === "number") return /[.eE]/.test(context!.source!) ? value : BigInt(context!.source!);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    return new Map(Object.entries(value as Record<string, PyValue>));
  }) as PyValue;
}

const parsers: ReadonlyArray<readonly [string, (text: string) => unknown]> = [
  ["parsePyJson", parsePyJson],
  ["JSON.parse", JSON.parse],
  ["JSON.parse with a source reviver", parseWithSource],
];
console.log(`${body.length} bytes a body, ${parses} parses a round, µs of CPU per parse:`);
for (let round = 1; round <= rounds; round++) {
  const line = parsers.map(([name, parse]) => {
    for (let i = 0; i < parses / 10; i++) parse(body);
    const before = process.cpuUsage();
    for (let i = 0; i < parses; i++) parse(body);
    const used = process.cpuUsage(before);
    return `${name} ${((used.user + used.system) / parses).toFixed(1)}`;
  });
  console.log(`round ${round}: ${line.join(", ")}`);
}
