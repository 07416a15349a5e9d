/**
 * `pydantic_ai` against the original project's numbers: its bill on the reference arenas beside
 * the baseline's (golden.md), and seed 000's published 794.0 prompt tokens per item on the
 * reference tool_use, reproduced from what pydantic-ai-slim 2.68.0 itself adds to a tool built with
 * `Tool.from_schema`'s defaults (strict left to the OpenAI profile): `"additionalProperties":
 * false` on both tools and `"strict": true` on calculator, 78 characters on every request. The
 * adapter sends `strict=False`, so none of them. README.md, Findings, has the explanation.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import { promptText } from "../../orchestrator/gateway/usage.ts";
import { pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";
import { specsFor } from "../../contract/tools/registry.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { adapterEntry, quickRun } from "../support/run.ts";
import { failedIds, passCount } from "./support/records.ts";
import { onReferenceArenas, referencePipelineBill, total } from "./support/reference-runs.ts";

/**
 * The tools block pydantic_ai 2.68.0 sends for `Tool.from_schema` tools with its defaults, read off
 * the request the openai client would send (an httpx2 MockTransport answers it: no socket).
 */
const FROM_SCHEMA_DEFAULTS = `
import asyncio, json, sys
import httpx2
from arena_tools import spec
from openai import AsyncOpenAI
from pydantic_ai import Agent, Tool
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider

seen = []
def answer(request):
    seen.append(json.loads(request.content))
    return httpx2.Response(200, json={"id": "c", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "ok"}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

client = AsyncOpenAI(base_url="http://gateway.invalid/v1", api_key="k", max_retries=0,
                     http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(answer)))
tools = [Tool.from_schema(lambda **kw: "", n, spec(n)["function"]["description"], spec(n)["function"]["parameters"]) for n in ("search", "calculator")]
agent = Agent(OpenAIChatModel("m", provider=OpenAIProvider(openai_client=client)), system_prompt="p", tools=tools)
asyncio.run(agent.run("q"))
sys.stdout.write(json.dumps(seen[0]["tools"]))
`;

function fromSchemaDefaultsTools(): any[] {
  const out = execFileSync(pythonExecutable(), ["-c", FROM_SCHEMA_DEFAULTS], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PYTHONPATH: path.join(import.meta.dirname, "../../workers/python") },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

describe("pydantic_ai 2.68.0: what Tool.from_schema's defaults add to the canonical tools (the seed's adapter)", () => {
  it("additionalProperties false on both tools and strict true on calculator: 715 characters where the baseline sends 637", () => {
    const tools = fromSchemaDefaultsTools();
    const canonical = specsFor(["search", "calculator"]);
    expect(tools).toEqual([
      { type: "function", function: { ...canonical[0]!.function, parameters: { ...canonical[0]!.function.parameters, additionalProperties: false } } },
      { type: "function", function: { ...canonical[1]!.function, parameters: { ...canonical[1]!.function.parameters, additionalProperties: false }, strict: true } },
    ]);
    // Python json.dumps lengths, as the gateway bills them: + 2 × `, "additionalProperties": false` + `, "strict": true`.
    const pyLength = (v: unknown) => dumpsPy(fromJs(v as any)).length;
    expect([pyLength(canonical), pyLength(tools)]).toEqual([637, 715]);
  }, 60_000);
});

describeWithReference("pydantic_ai on the reference arenas", () => {
  it("bills what the baseline bills, less the spaces its compact argument replay drops (tool_use 753.2 vs 753.5 per item)", async () => {
    const got: Record<string, [string, number, string[]]> = {};
    for (const [arena, record] of await onReferenceArenas("pydantic_ai", ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"])) {
      got[arena] = [passCount(record), total(record, "prompt_tokens"), failedIds(record)];
    }
    // Baseline Σ prompt tokens (golden.md): 11303, 9777, 12517, 5308, 6813, 21355, 28393.
    expect(got).toEqual({
      tool_use: ["15/15", 11298, []],
      structured_output: ["15/15", 9772, []],
      rag: ["15/15", 12513, []],
      // More than the baseline: pydantic_ai's own answers to broken JSON and an unknown tool are longer than the canonical errors.
      resilience: ["8/8", 5357, []],
      multi_agent: ["10/10", 6809, []],
      human_in_the_loop: ["12/12", 21329, []],
      durable_state: ["8/8", 28376, []],
    });
  }, 240_000);

  it("seed 000's 794.0 is the baseline's requests plus those 78 characters on each of them: 11910 / 15 exactly", async () => {
    const { gatewayRecords } = await quickRun({ arenaDirs: [path.join(REFERENCE_ARENAS, "tool_use")], adapters: [adapterEntry("vanilla")], corpusPath: REFERENCE_CORPUS });
    const requests = gatewayRecords.get("tool_use")!.requests;
    const billed = (extra: number) => requests.reduce((a, r) => a + Math.max(1, Math.floor(([...promptText(r.body)].length + extra) / 4)), 0);
    expect([requests.length, billed(0), billed(715 - 637), billed(715 - 637) / 15]).toEqual([31, 11303, 11910, 794]);
  }, 120_000);

  it("the pipeline variant costs what vanilla-multi does, less the compact replay (vanilla-multi: 17053 / 1980 / 40)", async () => {
    expect(await referencePipelineBill("pydantic_ai-multi")).toEqual(["10/10", 17045, 1980, 40]);
  }, 120_000);
});
