/** Shared set-up for the gateway suites: a real server on loopback, driven with global fetch. */
import { afterEach } from "vitest";
import { createGateway, type Gateway, type GatewayOptions } from "../../orchestrator/gateway/index.ts";
import { dumpsPy, fromJs, parsePyJson, type Dumpable, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { toolSpec as toolSpec_ } from "../../contract/tools/specs.ts";

const running: Gateway[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((g) => g.stop()));
});

export interface Started {
  readonly gw: Gateway;
  readonly base: string;
  /** POST a body (an object is sent as Python-format JSON, a string verbatim) to `<base>/chat/completions`. */
  post(body: Body, path?: string): Promise<Reply>;
}

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed with Python semantics (ints stay bigint, objects are Maps). */
  readonly json: PyValue;
}

export async function startGateway(options: GatewayOptions): Promise<Started> {
  const gw = createGateway(options);
  running.push(gw);
  const { baseUrl } = await gw.start();
  return {
    gw,
    base: baseUrl,
    post: (body, path) => postJson(`${path ?? baseUrl}/chat/completions`, body),
  };
}

/** A request body: an object literal (sent as Python-format JSON; `undefined` members are dropped) or raw text. */
export type Body = Dumpable | string | object;

export async function postJson(url: string, body: Body): Promise<Reply> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer mock-key" },
    body: typeof body === "string" ? body : dumpsPy(body as Dumpable),
  });
  const text = await res.text();
  let json: PyValue = null;
  try {
    json = parsePyJson(text);
  } catch {
    // SSE and empty bodies are read through `text`.
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** `a.b.0.c` style access into a parsed PyValue. */
export function at(v: PyValue | undefined, path: string): PyValue | undefined {
  let cur: PyValue | undefined = v;
  for (const key of path.split(".")) {
    if (cur instanceof Map) cur = cur.get(key);
    else if (Array.isArray(cur)) cur = cur[Number(key)];
    else return undefined;
  }
  return cur;
}

/** The assistant message of a non-streamed reply. */
export function messageOf(r: Reply): PyDict {
  return at(r.json, "choices.0.message") as PyDict;
}

export const user = (content: Dumpable) => ({ role: "user", content });
export const system = (content: string) => ({ role: "system", content });
export const assistant = (content: Dumpable = null) => ({ role: "assistant", content });

/** An OpenAI tool spec with the given required string parameters. */
export function toolSpec(name: string, params: Record<string, Dumpable> = {}, required: string[] = Object.keys(params)): Dumpable {
  return { type: "function", function: { name, description: `the ${name} tool`, parameters: { type: "object", properties: params, required } } };
}

/** The canonical `search` and `calculator` specs (tools.md §1), as PyValues so `3` stays an int. */
export const SEARCH_SPEC = fromJs(toolSpec_("search"));
export const CALCULATOR_SPEC = fromJs(toolSpec_("calculator"));
