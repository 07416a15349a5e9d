/**
 * What each framework's pinned version sends that the mechanical parts of seed 000's reproduction
 * (scripts/findings/seed-000.ts) do not name by themselves, and why ours differs from the study's
 * figure. Each note is checked against the wire of `pnpm findings`; the adapters' READMEs hold the
 * evidence (workers/adapters/<name>/README.md).
 */
export const SEED_000_NOTES: Readonly<Record<string, string>> = {
  vanilla:
    "ours equals the study's; the Python edition's request bodies are the TypeScript baseline's byte for byte (tests/adapters/vanilla-py.test.ts)",
  pydantic_ai:
    "ours builds its tools with `strict=False`, so the canonical block goes out as is, and replays arguments compactly (`{\"expr\":…}`, a few characters less than the baseline); the published 794.0 is what `Tool.from_schema`'s defaults send in 2.68.0: `additionalProperties: false` on both tools and `strict: true` on calculator, 78 characters a request, 11910 tokens over the baseline's 31 requests, 794.0 an item exactly (tests/adapters/pydantic_ai.reference.test.ts)",
  smolagents:
    "smolagents 1.26.0's system-prompt template lists every tool with its inputs, so the canonical `default: 3` on `search.k` is billed twice per request (14 characters in the tools block, 14 in the template); with the default removed ours measured 2935.5, the published figure: the study's adapter built the tool through smolagents' docstring path, which drops defaults",
  microsoft_af:
    "agent-framework 1.23 sends the canonical schema dict verbatim and replays tool-call turns without `\"content\": null` (17 characters each), so ours is below the baseline; the published 802.0 is what tools declared from Python signatures bill (pydantic adds `title` to each property and the object: 103 characters a request for the two tools, +53.2 tokens an item over the 31 requests, 801.9)",
  openai_agents:
    "both editions send the canonical schema non-strict (671 characters with `\"strict\": false`) and bill 771.3; the published 856.9 is `@function_tool`'s strict schemas (`k` required, `additionalProperties: false`, pydantic titles: 837 characters), 41.5 tokens more on each of the 31 requests, 857.1 an item (tests/adapters/openai_agents-py.wire.test.ts pins the three block sizes)",
  google_adk:
    "the Python edition's 783.7 is the TypeScript edition's 753.5 plus ADK for Python's identity line (`You are an agent. Your internal name is \"assistant\".`, 14.6 tokens a request, appended whatever the transfer settings); the other 52.4 of the published 836.1 is not reproduced: neither ADK's own `OpenAILlm` (784.4) nor tools declared from Python signatures explains it, and the study's adapter is not in the reference data",
  langgraph:
    "the Python edition equals the baseline, as the study's does (ChatOpenAI replays `content: null`, no `name` on tool messages, arguments with `json.dumps` spacing); the TypeScript edition's 758.3 is LangChain.js's replay, not its first request: `name` on every tool message, `\"\"` for an empty content, compact arguments",
};
