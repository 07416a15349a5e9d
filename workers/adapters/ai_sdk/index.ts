/**
 * `ai_sdk`: one agent on the Vercel AI SDK (`ai`), run by the SDK's own tool loop over an
 * OpenAI-compatible chat model pointed at the gateway (see README.md). The SDK is loaded inside
 * `build` only, so the version can be read (and reported as not installed) without it.
 */
import type { Adapter } from "../../../contract/adapter.ts";
import { versionOf } from "../package-version.ts";

/** `ai <v> (@ai-sdk/openai-compatible <v>)`, or `ai (not installed)`; never throws. */
export function sdkVersion(): string {
  const ai = versionOf("ai");
  if (ai === null) return "ai (not installed)";
  return `ai ${ai} (@ai-sdk/openai-compatible ${versionOf("@ai-sdk/openai-compatible") ?? "(not installed)"})`;
}

const adapter: Adapter = {
  name: "ai_sdk",
  libVersion: sdkVersion,
  async build(arena, config, ctx) {
    const { buildRunner } = await import("./runner.ts");
    return buildRunner({ arena, config, ctx });
  },
};
export default adapter;
