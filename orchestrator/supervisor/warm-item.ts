/**
 * The one item a bundle's warm-up worker runs after its build (code-cache.ts), and the stand-in
 * model it runs against, so the code cache made at its exit holds an item's run as well as a
 * build: the host's job handling, the adapter's loop, its framework's request and reply code, a
 * tool call. Without it every worker compiled that path again on its first item (a start, a build
 * and two items, scripts/item-cache.ts: openai_agents 592 → 538 ms of CPU, langgraph 601 → 561,
 * mastra 1,192 → 1,113; docs/performance.md, "An item in the warm-up").
 *
 * The stand-in answers any chat-completions request as a model would: a call of the calculator
 * first, the answer once the request carries the tool's result; as one JSON reply, or as a
 * server-sent stream when the request asks for one. It serves the warm-up worker only, never a
 * run: a sealed warm-up reaches it through the same bridge a sealed worker has (its Unix socket
 * routed to the port of the warm-up's base URL, code-cache.ts), an unsealed one on a loopback port.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ToWorker } from "../../contract/protocol.ts";

/** The warm-up's arena (sandbox/compile-cache.ts `warmBuild`) has the calculator. */
const TOOL_CALL = { id: "call_warm_up", type: "function", function: { name: "calculator", arguments: JSON.stringify({ expression: "6 * 7" }) } };
const ANSWER = "42";
const USAGE = { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 };

/** The run message of the warm-up item; `checkpointDir` must be writable by the warm-up. */
export function warmRun(checkpointDir: string): ToWorker {
  return { type: "run", job: "warm-up", arena: "warm_up", item: { id: "warm-up", input: "What is 6 * 7?", resume_with: "approve", checkpointDir }, seat: 0 };
}

interface ChatRequest {
  readonly model?: unknown;
  readonly stream?: unknown;
  readonly messages?: readonly { readonly role?: unknown }[];
}

function reply(request: ChatRequest): { message: Record<string, unknown>; finish: string } {
  const answered = request.messages?.some((m) => m.role === "tool") === true;
  return answered ? { message: { role: "assistant", content: ANSWER }, finish: "stop" } : { message: { role: "assistant", content: null, tool_calls: [TOOL_CALL] }, finish: "tool_calls" };
}

function respond(request: ChatRequest, res: http.ServerResponse): void {
  const { message, finish } = reply(request);
  const base = { id: "chatcmpl-warm-up", created: 0, model: typeof request.model === "string" ? request.model : "warm-up" };
  if (request.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage: USAGE }));
    return;
  }
  const delta = message.tool_calls ? { role: "assistant", tool_calls: [{ index: 0, ...TOOL_CALL }] } : { role: "assistant", content: ANSWER };
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices, ...extra })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream" });
  res.end(chunk([{ index: 0, delta, finish_reason: null }]) + chunk([{ index: 0, delta: {}, finish_reason: finish }]) + chunk([], { usage: USAGE }) + "data: [DONE]\n\n");
}

/** The stand-in model, listening on `socket` (a Unix socket path) or, without one, on a loopback port. */
export class WarmModel {
  private readonly server: http.Server;
  /** Requests it answered: a warm-up that ran its item sent at least one. */
  requests = 0;

  private constructor(server: http.Server) {
    this.server = server;
  }

  static async listen(socket?: string): Promise<WarmModel> {
    let model: WarmModel | undefined;
    const server = http.createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (d: string) => (body += d));
      req.on("end", () => {
        model!.requests += 1;
        let request: ChatRequest;
        try {
          request = JSON.parse(body) as ChatRequest;
        } catch {
          res.writeHead(400).end();
          return;
        }
        respond(request, res);
      });
    });
    model = new WarmModel(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if (socket === undefined) server.listen(0, "127.0.0.1", resolve);
      else server.listen(socket, resolve);
    });
    return model;
  }

  /** The loopback port it listens on (undefined on a Unix socket). */
  get port(): number | undefined {
    const address = this.server.address();
    return typeof address === "object" && address !== null ? (address as AddressInfo).port : undefined;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
