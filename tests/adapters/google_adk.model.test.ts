/**
 * `google_adk`'s Chat Completions model class on its own, in-process against the mock gateway:
 * what it puts on the wire for ADK's Gemini-shaped requests and what it hands ADK back, and what
 * ADK itself does after an error event when every event is consumed (what the adapter's stop at
 * the first error event cuts off). Every figure and finding here is the one in
 * workers/adapters/google_adk/README.md; the adapters through the orchestrator are the other
 * google_adk.*.test.ts files.
 */
import { FunctionTool, InMemoryRunner, LlmAgent, SequentialAgent } from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { toJs } from "@agentic-arena/py-semantics";
import { ChatCompletionsLlm, RAW_ARGUMENTS, requestBody, responseOf, UnsupportedRequestError } from "../../workers/adapters/google_adk/model.ts";
import { bodiesOf, type Body } from "./support/wire.ts";

describe("the model class (model.ts): ADK's Gemini-shaped request as Chat Completions, and back", () => {
  const call = (id: string, name: string, raw: string) => ({ functionCall: { id, name, args: {} }, partMetadata: { [RAW_ARGUMENTS]: raw } });

  it("maps system instruction, contents, tool results and temperature in the baseline's key order", () => {
    const body = requestBody(
      {
        model: "m",
        contents: [
          { role: "user", parts: [{ text: "q" }] },
          { role: "model", parts: [{ text: "thinking", thought: true }, call("c1", "calculator", '{"expr": "1 +1"}')] },
          { role: "user", parts: [{ functionResponse: { id: "c1", name: "calculator", response: { result: "2" } } }] },
          { role: "model", parts: [{ text: "It is 2." }] },
          { role: "user", parts: [{ text: "For context:" }, { text: "[a] said: hi" }] },
        ],
        config: { systemInstruction: "Be brief.", temperature: 0.3, labels: { adk_agent_name: "assistant" } },
        toolsDict: {},
        liveConnectConfig: {},
      },
      "fallback",
    );
    expect(Object.keys(body)).toEqual(["model", "messages", "temperature", "stream"]);
    expect(body).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "q" },
        // The raw argument string as the model sent it (spacing kept), not a re-serialisation of args.
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "calculator", arguments: '{"expr": "1 +1"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "2" },
        { role: "assistant", content: "It is 2." },
        { role: "user", content: [{ type: "text", text: "For context:" }, { type: "text", text: "[a] said: hi" }] },
      ],
      temperature: 0.3,
      stream: false,
    });
  });

  it("converts Gemini schemas (ADK's own zod-derived tools) to JSON Schema and sends a raw JSON Schema as is", () => {
    const body = requestBody(
      {
        contents: [],
        config: {
          tools: [
            {
              functionDeclarations: [
                { name: "a", description: "A.", parameters: { type: "OBJECT" as any, properties: { n: { type: "INTEGER" as any, nullable: true, minItems: "1" } }, required: ["n"] } },
                { name: "b", parametersJsonSchema: { type: "object", properties: {} } },
              ],
            },
          ],
        },
        toolsDict: {},
        liveConnectConfig: {},
      },
      "m",
    );
    expect(body.tools).toEqual([
      { type: "function", function: { name: "a", description: "A.", parameters: { type: "object", properties: { n: { type: ["integer", "null"], minItems: 1 } }, required: ["n"] } } },
      { type: "function", function: { name: "b", parameters: { type: "object", properties: {} } } },
    ]);
  });

  it("refuses a generation setting it has no mapping for instead of dropping it", () => {
    for (const config of [{ topP: 0.5 }, { toolConfig: { functionCallingConfig: {} } }, { maxOutputTokens: 10 }]) {
      const request = { contents: [], config, toolsDict: {}, liveConnectConfig: {} };
      expect(() => requestBody(request, "m")).toThrow(UnsupportedRequestError);
      expect(() => requestBody(request, "m")).toThrow(`generateContentConfig.${Object.keys(config)[0]} has no Chat Completions mapping`);
    }
  });

  it("turns the reply into Gemini content: usage as usageMetadata, the raw arguments kept, a non-object argument string as {}", () => {
    const reply = responseOf({
      choices: [{ message: { content: null, tool_calls: [{ id: "x", function: { name: "calculator", arguments: '{"expr": "2+' } }, { function: { name: "s", arguments: "[1]" } }] } }],
      usage: { prompt_tokens: 10, completion_tokens: 3 },
    });
    expect(reply).toEqual({
      content: {
        role: "model",
        parts: [
          { functionCall: { id: "x", name: "calculator", args: {} }, partMetadata: { [RAW_ARGUMENTS]: '{"expr": "2+' } },
          { functionCall: { id: "call_1", name: "s", args: {} }, partMetadata: { [RAW_ARGUMENTS]: "[1]" } },
        ],
      },
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
    });
    // An empty reply still carries its usage (ADK then records a usage-only event).
    expect(responseOf({ choices: [{ message: { content: "" } }], usage: { prompt_tokens: 4, completion_tokens: 0 } })).toEqual({
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 0, totalTokenCount: 4 },
    });
  });

  it("structured output through ADK: outputSchema becomes response_format json_schema, the reply lands parsed in state", async () => {
    const record = { name: "Eiffel Tower", height_m: 330 };
    const gateway = createGateway({ script: { default: { turns: [{ content: JSON.stringify(record) }] } } });
    const { baseUrl } = await gateway.start();
    try {
      const agent = new LlmAgent({
        name: "extractor",
        model: new ChatCompletionsLlm({ model: "mock-model", baseUrl, apiKey: "k", timeoutMs: 10_000 }),
        instruction: () => "Extract.",
        disallowTransferToParent: true,
        disallowTransferToPeers: true,
        generateContentConfig: { temperature: 0 },
        outputSchema: z.object({ name: z.string(), height_m: z.number() }),
        outputKey: "record",
      });
      const runner = new InMemoryRunner({ agent, appName: "t" });
      const session = await runner.sessionService.createSession({ appName: "t", userId: "u" });
      for await (const _ of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Eiffel Tower" }] } }));
      const state = (await runner.sessionService.getSession({ appName: "t", userId: "u", sessionId: session.id }))!.state;
      expect(state.record).toEqual(record);
      const body = toJs(gateway.recorder.records().requests[0]!.body) as Body;
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: {
          name: "response",
          schema: { type: "object", properties: { name: { type: "string" }, height_m: { type: "number" } }, required: ["name", "height_m"] },
        },
      });
    } finally {
      await gateway.stop();
    }
  }, 60_000);
});

describe("ADK on its own, every event consumed: what the adapter's stop at the first error event cuts off", () => {
  const agentOn = (baseUrl: string, tools: FunctionTool[], name = "solo") =>
    new LlmAgent({
      name,
      model: new ChatCompletionsLlm({ model: "mock-model", baseUrl, apiKey: "k", timeoutMs: 10_000 }),
      instruction: () => "Answer.",
      disallowTransferToParent: true,
      disallowTransferToPeers: true,
      generateContentConfig: { temperature: 0 },
      tools,
    });
  async function drain(root: LlmAgent | SequentialAgent) {
    const runner = new InMemoryRunner({ agent: root, appName: "t" });
    const session = await runner.sessionService.createSession({ appName: "t", userId: "u" });
    const events = [];
    for await (const e of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "q" }] } })) events.push(e);
    return events;
  }

  it("after an unknown tool's error event ADK calls the model again, the call left without a tool message", async () => {
    const calculator = new FunctionTool({ name: "calculator", description: "Calculate.", execute: () => "2" });
    const turns = [{ tool_calls: [{ name: "slide_rule", arguments: { x: 1 } }] }, { content: "2." }];
    const gateway = createGateway({ script: { default: { turns } } });
    const { baseUrl } = await gateway.start();
    try {
      const events = await drain(agentOn(baseUrl, [calculator]));
      expect(events.find((e) => e.errorMessage)?.errorMessage).toBe("Function slide_rule is not found in the toolsDict.");
      const bodies = bodiesOf(gateway.recorder.records().requests);
      expect(bodies.length).toBe(2);
      expect(bodies[1]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    } finally {
      await gateway.stop();
    }
  }, 60_000);

  it("after a stage's error event a SequentialAgent runs the next stages: a 400 on the first is followed by two more calls", async () => {
    const gateway = createGateway({ script: { default: { turns: [{ content: "brief" }] } }, faults: [400] });
    const { baseUrl } = await gateway.start();
    try {
      const stages = ["a", "b", "c"].map((name) => agentOn(baseUrl, [], name));
      const events = await drain(new SequentialAgent({ name: "p", subAgents: stages }));
      expect(gateway.recorder.records().attempts.length).toBe(3);
      expect(events.filter((e) => e.errorMessage).map((e) => e.author)).toEqual(["a"]);
    } finally {
      await gateway.stop();
    }
  }, 60_000);
});
