/**
 * ADK for TypeScript ships Gemini models only, so this is the model class a TS user has to write to
 * put an ADK agent on any OpenAI-compatible endpoint: a `BaseLlm` that turns ADK's Gemini-shaped
 * request (contents, systemInstruction, functionDeclarations, generation config) into one Chat
 * Completions call and the reply back into an `LlmResponse`. Its size is part of what ADK costs
 * (README.md). No retries and no streaming: a failed attempt is an error ADK reports as an event.
 */
import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from "@google/adk";
import { LlmHttpError } from "../../../contract/texts.ts";

type Content = LlmRequest["contents"][number];
type Part = NonNullable<Content["parts"]>[number];
type Config = NonNullable<LlmRequest["config"]>;
type Message = Record<string, unknown>;

/**
 * Where a function-call part keeps the arguments string exactly as the model sent it (Gemini holds
 * parsed `args` only). It travels with the session's events, so the replay and the tool see the
 * same bytes as the wire, also after a restart, and a string that is not a JSON object survives.
 */
export const RAW_ARGUMENTS = "chat_completions_arguments";

/** Generation settings this class sends or knowingly drops; anything else is refused, never silently lost. */
const HANDLED = new Set(["systemInstruction", "temperature", "tools", "responseMimeType", "responseSchema", "responseJsonSchema", "labels", "httpOptions", "abortSignal"]);
const INT64_FIELDS = new Set(["minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"]);

export interface ChatModelOptions {
  readonly model: string;
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Bounds one HTTP attempt, body included. */
  readonly timeoutMs: number;
}

/** A non-2xx reply, in the baseline's wording so the harness classifies it the same way. */
export class ChatCompletionsHttpError extends LlmHttpError {
  override readonly name = "ChatCompletionsHttpError";
}

export class UnsupportedRequestError extends Error {
  override readonly name = "UnsupportedRequestError";
}

/** Gemini's OpenAPI-style Schema (UPPERCASE types, `nullable`, int64 as strings) as JSON Schema; key order kept. */
export function jsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const s = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s)) {
    if (key === "nullable" || key === "propertyOrdering" || value === undefined) continue;
    if (key === "type" && typeof value === "string") out.type = s.nullable === true ? [value.toLowerCase(), "null"] : value.toLowerCase();
    else if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSchema(v)]));
    } else if (key === "items" || key === "anyOf") out[key] = jsonSchema(value);
    else if (INT64_FIELDS.has(key) && typeof value === "string") out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}

function textOf(parts: readonly Part[]): string {
  return parts.map((p) => (typeof p.text === "string" && !p.thought ? p.text : "")).join("");
}

/** A tool's result as the tool message content: ADK wraps a string as `{result}`; that string is sent as is. */
function toolContent(response: unknown): string {
  const r = response as Record<string, unknown> | undefined;
  if (r && Object.keys(r).length === 1 && typeof r.result === "string") return r.result;
  return JSON.stringify(response ?? {});
}

function messagesOf(contents: readonly Content[], system: string): Message[] {
  const messages: Message[] = system ? [{ role: "system", content: system }] : [];
  for (const content of contents) {
    const parts = content.parts ?? [];
    if (content.role === "model") {
      const calls = parts.flatMap((p) => (p.functionCall ? [p] : []));
      const text = textOf(parts);
      if (calls.length === 0) {
        if (text) messages.push({ role: "assistant", content: text });
        continue;
      }
      const toolCalls = calls.map((p) => {
        const raw = p.partMetadata?.[RAW_ARGUMENTS];
        const args = typeof raw === "string" ? raw : JSON.stringify(p.functionCall!.args ?? {});
        return { id: p.functionCall!.id, type: "function", function: { name: p.functionCall!.name, arguments: args } };
      });
      messages.push({ role: "assistant", content: text || null, tool_calls: toolCalls });
      continue;
    }
    // A user turn: tool results become tool messages; text parts, one user message (parts kept apart).
    let texts: string[] = [];
    const flush = () => {
      if (texts.length > 0) messages.push({ role: "user", content: texts.length === 1 ? texts[0] : texts.map((text) => ({ type: "text", text })) });
      texts = [];
    };
    for (const p of parts) {
      if (p.functionResponse) {
        flush();
        messages.push({ role: "tool", tool_call_id: p.functionResponse.id, content: toolContent(p.functionResponse.response) });
      } else if (typeof p.text === "string" && !p.thought) texts.push(p.text);
    }
    flush();
  }
  return messages;
}

function systemText(config: Config): string {
  const si = config.systemInstruction as unknown;
  if (typeof si === "string") return si;
  if (Array.isArray(si)) return si.map((x) => (typeof x === "string" ? x : textOf(x?.parts ?? [x]))).join("\n\n");
  if (si && typeof si === "object") return textOf((si as Content).parts ?? [si as Part]);
  return "";
}

/** The request body, keys in the baseline's order (model, messages, temperature, stream, tools); no tool_choice (the API's default is auto). */
export function requestBody(request: LlmRequest, model: string): Record<string, unknown> {
  const config: Config = request.config ?? {};
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined && !HANDLED.has(key)) throw new UnsupportedRequestError(`generateContentConfig.${key} has no Chat Completions mapping in this model class`);
  }
  const body: Record<string, unknown> = { model: request.model ?? model, messages: messagesOf(request.contents, systemText(config)) };
  if (config.temperature !== undefined) body.temperature = config.temperature;
  body.stream = false;
  const declarations = (config.tools ?? []).flatMap((t) => ("functionDeclarations" in t ? t.functionDeclarations ?? [] : []));
  const tools = declarations.map((d) => {
    const parameters = d.parametersJsonSchema ?? (d.parameters ? jsonSchema(d.parameters) : undefined);
    return { type: "function", function: { name: d.name, ...(d.description ? { description: d.description } : {}), ...(parameters ? { parameters } : {}) } };
  });
  if (tools.length > 0) body.tools = tools;
  const schema = config.responseJsonSchema ?? (config.responseSchema ? jsonSchema(config.responseSchema) : undefined);
  if (schema !== undefined) body.response_format = { type: "json_schema", json_schema: { name: "response", schema } };
  else if (config.responseMimeType === "application/json") body.response_format = { type: "json_object" };
  return body;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** The first choice as Gemini content; usage as `usageMetadata` (what ADK puts on the event). */
export function responseOf(data: any): LlmResponse {
  const message = data?.choices?.[0]?.message ?? {};
  const parts: Part[] = [];
  if (typeof message.content === "string" && message.content !== "") parts.push({ text: message.content });
  for (const [index, call] of (Array.isArray(message.tool_calls) ? message.tool_calls : []).entries()) {
    const raw = call?.function?.arguments;
    const text = typeof raw === "string" ? raw : JSON.stringify(raw ?? {});
    let args: unknown;
    try {
      args = JSON.parse(text);
    } catch {
      args = undefined;
    }
    parts.push({
      functionCall: {
        id: typeof call?.id === "string" && call.id ? call.id : `call_${index}`,
        name: typeof call?.function?.name === "string" ? call.function.name : "",
        // Gemini args are an object; anything else keeps only its raw string (and the tool reads that).
        args: args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {},
      },
      partMetadata: { [RAW_ARGUMENTS]: text },
    });
  }
  const prompt = count(data?.usage?.prompt_tokens);
  const completion = count(data?.usage?.completion_tokens);
  return {
    // No parts at all: a usage-only response, so ADK still records the call's usage on an event.
    ...(parts.length > 0 ? { content: { role: "model", parts } } : {}),
    usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: completion, totalTokenCount: prompt + completion },
  };
}

export class ChatCompletionsLlm extends BaseLlm {
  private readonly options: ChatModelOptions;

  constructor(options: ChatModelOptions) {
    super({ model: options.model });
    this.options = options;
  }

  /** `stream` is ignored: the reply always comes as one complete response (never `stream: true` on the wire). */
  override async *generateContentAsync(request: LlmRequest, _stream?: boolean, abortSignal?: AbortSignal): AsyncGenerator<LlmResponse, void> {
    const body = requestBody(request, this.model);
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const response = await fetch(`${this.options.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${this.options.apiKey}` },
      body: JSON.stringify(body),
      signal: abortSignal ? AbortSignal.any([timeout, abortSignal]) : timeout,
    });
    const text = await response.text();
    if (!response.ok) throw new ChatCompletionsHttpError(response.status, text);
    yield responseOf(JSON.parse(text));
  }

  override async connect(_request: LlmRequest): Promise<BaseLlmConnection> {
    throw new UnsupportedRequestError("Chat Completions has no live (bidirectional) connection");
  }
}
