/**
 * Messages in a normal form, so "the same message" means the same thing to every rule: a
 * framework may re-serialise a served call's arguments (`{"k": 1}` → `{"k":1}`), send `null`
 * content as `""` or as text parts, or order keys its own way — none of that changes what the
 * model reads. Anything else does: a changed argument value, id, name, text or role.
 */
import { messageText, type Body } from "./wire.ts";

/** JSON with sorted keys: two values are the same value exactly when their forms are equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]));
  }
  return value;
}

/** A call's arguments as the same value, however serialised; a text that is not JSON stays itself. */
export function normalArgs(args: unknown): string {
  if (typeof args !== "string") return canonicalJson(args ?? {});
  try {
    return canonicalJson(JSON.parse(args));
  } catch {
    return args;
  }
}

/** Whether a call's arguments are a JSON object (a string that parses to one, or one already). */
export function isJsonObjectArgs(args: unknown): boolean {
  try {
    const value: unknown = typeof args === "string" ? JSON.parse(args) : args;
    return value !== null && typeof value === "object" && !Array.isArray(value);
  } catch {
    return false;
  }
}

export interface NormalCall {
  readonly id: string;
  readonly name: string;
  readonly args: string;
  /** The arguments exactly as sent: what the tool is run on (a normal form may not round-trip, e.g. 1e400). */
  readonly raw: string;
}

/** The tool calls of an assistant message (a request's replayed turn or a served reply). */
export function callsOf(message: Body | null | undefined): NormalCall[] {
  if (!message || !Array.isArray(message.tool_calls)) return [];
  return message.tool_calls
    .filter((c: Body) => c && typeof c === "object")
    .map((c: Body) => {
      const raw = typeof c.function?.arguments === "string" ? c.function.arguments : JSON.stringify(c.function?.arguments ?? {});
      return { id: String(c.id ?? ""), name: String(c.function?.name ?? ""), args: normalArgs(c.function?.arguments), raw };
    });
}

/** One message as a comparable string: role, text, and for assistant turns its calls, for tool messages the call it answers. */
export function normalMessage(message: Body): string {
  const role = String(message.role ?? "");
  if (role === "assistant") return canonicalJson({ role, text: messageText(message), calls: callsOf(message).map(({ id, name, args }) => ({ id, name, args })) });
  if (role === "tool") return canonicalJson({ role, id: String(message.tool_call_id ?? ""), text: messageText(message) });
  return canonicalJson({ role, text: messageText(message) });
}

/** A served reply (the assistant message the gateway sent) in the same form, or undefined when nothing was served. */
export function normalReply(reply: unknown): string | undefined {
  if (!reply || typeof reply !== "object") return undefined;
  return normalMessage({ ...(reply as Body), role: "assistant" });
}
