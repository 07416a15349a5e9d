/**
 * The whole decision for one served request, independent of HTTP: request body in, rendered
 * message and usage out. Pure except for the generated ids and `created`.
 */
import type { PyDict, PyValue } from "@agentic-arena/py-semantics";
import type { Turn } from "../arena/schemas.ts";
import type { ResolvedOptions } from "./options.ts";
import { asDict, truthy } from "./py-helpers.ts";
import { contentMessage, renderNative, type Rendered, type ResponseMeta } from "./render-native.ts";
import { detectTextProtocol, reactTurnIndex, renderCodeAgent, renderReact } from "./render-text.ts";
import type { CompiledScript } from "./script.ts";
import { firstUserText, selectTurns } from "./selection.ts";
import { advertisedTools, applyRewrites, assistantCount, holdsNoArenaTools, skipToContent, turnAt } from "./turn.ts";
import { completionTokens, promptTokens, type Usage } from "./usage.ts";

/** A body the gateway refuses (answered 400; counted as an attempt, never recorded as a request). */
export class BadRequestError extends Error {
  override readonly name = "BadRequestError";
}

export interface ReplyPlan {
  readonly meta: ResponseMeta;
  readonly rendered: Rendered;
  readonly usage: Usage;
  readonly stream: boolean;
  readonly includeUsage: boolean;
}

export interface ReplyContext {
  readonly script: CompiledScript;
  readonly options: ResolvedOptions;
  readonly nextResponseId: () => string;
}

/**
 * Shape checks the reference never made (it crashed on them). `messages: null` stays valid: the
 * reference serves it and bills the four characters `null`.
 */
function checkShape(body: PyDict): { messages: readonly PyValue[]; tools: readonly PyValue[] } {
  const messages = body.get("messages");
  if (messages !== undefined && messages !== null && !Array.isArray(messages)) {
    throw new BadRequestError("invalid request: 'messages' must be an array");
  }
  for (const [i, m] of (messages ?? []).entries()) {
    if (!(m instanceof Map)) throw new BadRequestError(`invalid request: 'messages[${i}]' must be an object`);
  }
  const tools = body.get("tools");
  if (truthy(tools) && !Array.isArray(tools)) throw new BadRequestError("invalid request: 'tools' must be an array");
  return { messages: messages ?? [], tools: truthy(tools) ? (tools as PyValue[]) : [] };
}

export function planReply(ctx: ReplyContext, body: PyDict): ReplyPlan {
  const { messages, tools } = checkShape(body);
  const firstUser = firstUserText(messages);
  const turns = selectTurns(ctx.script, firstUser);

  let rendered: Rendered;
  const protocol = detectTextProtocol(tools.length > 0, body.get("stop"));
  if (protocol === "code") {
    rendered = contentMessage(renderCodeAgent(turnAt(turns, assistantCount(messages))));
  } else if (protocol === "react") {
    rendered = contentMessage(renderReact(turnAt(turns, reactTurnIndex(messages))));
  } else {
    rendered = renderNative(nativeTurn(ctx, turns, messages, tools, firstUser));
  }

  const usage: Usage = { prompt_tokens: promptTokens(body), completion_tokens: completionTokens(rendered.message) };
  return {
    meta: {
      id: ctx.nextResponseId(),
      created: Math.floor(Date.now() / 1000),
      model: body.has("model") ? (body.get("model") as PyValue) : "mock-model",
    },
    rendered,
    usage,
    stream: truthy(body.get("stream")),
    includeUsage: truthy(asDict(body.get("stream_options"))?.get("include_usage")),
  };
}

function nativeTurn(
  ctx: ReplyContext,
  turns: readonly Turn[],
  messages: readonly PyValue[],
  tools: readonly PyValue[],
  firstUser: string,
): Turn {
  const { arenaTools, forwardContext } = ctx.options;
  const advertised = advertisedTools(tools);
  const index = assistantCount(messages);
  const turn = holdsNoArenaTools(advertised, arenaTools) ? skipToContent(turns, index) : turnAt(turns, index);
  // No tools, no delegate and no final_answer: nothing to rewrite (the common tool-less stage).
  if (advertised.length === 0) return turn;
  const taskText = forwardContext === "" ? firstUser : `${firstUser}\n\n${forwardContext}`;
  return applyRewrites(turn, { advertised, messages, taskText, arenaTools });
}
