/**
 * Reading a Chat Completions request body as the witness sees it: plain JSON, the way the
 * provider would. Shared by the rules the run checks on every request and by the probes.
 */
// A request body is data from a worker: every field may be missing or of any type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = Record<string, any>;

export function messages(body: Body): Body[] {
  return Array.isArray(body.messages) ? body.messages.filter((m: unknown) => m !== null && typeof m === "object") : [];
}

/** "Message text": a string `content`, or the concatenated `text` of content parts. */
export function messageText(message: Body): string {
  const c = message?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

/** Names advertised in a request, in order (`tools[i].function.name`). */
export function advertisedNames(body: Body): string[] {
  if (!Array.isArray(body.tools)) return [];
  return body.tools.map((t: Body) => t?.function?.name).filter((n: unknown): n is string => typeof n === "string");
}

/** Wire tool functions by name (first wins). */
export function wireFunctions(body: Body): Map<string, Body> {
  const out = new Map<string, Body>();
  for (const t of Array.isArray(body.tools) ? body.tools : []) {
    const fn = t?.function;
    if (fn && typeof fn.name === "string" && !out.has(fn.name)) out.set(fn.name, fn);
  }
  return out;
}

/** A request that streams without asking for usage: a real provider then returns none. */
export function isBlindStream(body: Body): boolean {
  return Boolean(body.stream) && body.stream_options?.include_usage !== true;
}

/** The system (or developer) message texts of a request, in order. */
export function systemTexts(body: Body): string[] {
  return messages(body).filter((m) => m.role === "system" || m.role === "developer").map(messageText);
}

/** Evidence is cut short: a violation names what differed, it does not copy the transcript. */
export function cut(text: string, max = 160): string {
  const s = typeof text === "string" ? text : JSON.stringify(text) ?? String(text);
  return s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s;
}
