/**
 * A completion's body, read under the size limit (gateway.md §9) and parsed as Python's json would
 * (an empty body is `{}`). Too large is refused as soon as it is known, from the declared length or
 * mid-stream, and the connection is dropped after the 413: draining the rest could be huge.
 */
import type http from "node:http";
import { parsePyJson, type PyDict } from "@agentic-arena/py-semantics";
import { CLOSE, errorBody, INVALID_JSON_BODY } from "./http-util.ts";
import type { LiveAttempt } from "./record-types.ts";
import { finish } from "./settle.ts";

export interface ParsedBody {
  /** As received, its decoded text, and its value. */
  readonly raw: Buffer;
  readonly text: string;
  readonly body: PyDict;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Calls `onBody` with the whole body, unless it was over `limit` (then a 413 was sent). */
export function readLimitedBody(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  attempt: LiveAttempt,
  limit: number,
  onBody: (raw: Buffer) => void,
): void {
  const tooLarge = (): void => {
    req.removeAllListeners("data");
    res.shouldKeepAlive = false;
    finish(res, attempt, "rejected", 413, errorBody(`request body too large (limit ${limit} bytes)`), CLOSE);
    res.once("finish", () => req.socket.destroySoon());
  };
  if (Number(req.headers["content-length"]) > limit) {
    tooLarge();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  req.on("data", (c: Buffer) => {
    size += c.length;
    if (size > limit) {
      tooLarge();
      return;
    }
    chunks.push(c);
  });
  req.once("end", () => {
    if (size > limit) return;
    onBody(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
  });
}

/** The body as a JSON object, or undefined when it is not valid UTF-8 JSON or not an object. */
export function parseBody(raw: Buffer): ParsedBody | undefined {
  if (raw.length === 0) return { raw, text: "", body: new Map() };
  try {
    const text = utf8.decode(raw);
    const body = parsePyJson(text);
    return body instanceof Map ? { raw, text, body } : undefined;
  } catch {
    return undefined;
  }
}
