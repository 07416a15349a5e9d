/**
 * A loopback Chat Completions server for a suite's HTTP-layer tests, which the mock gateway cannot
 * stand in for (it answers every request; these need one that never answers, and the raw headers):
 * it records each request's path and headers, answers with the message `reply` builds from the
 * parsed body, or — while `stall` is set — never answers, so only the client's own timeout ends
 * the attempt. Every reply bills 5 prompt and 1 completion tokens.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatServer {
  readonly baseUrl: string;
  /** Every request received, in order (cleared by the test as it needs). */
  readonly seen: { path: string; headers: http.IncomingHttpHeaders }[];
  /** While true, requests are recorded and never answered. */
  stall: boolean;
  close(): void;
}

export async function chatServer(reply: (body: any) => unknown): Promise<ChatServer> {
  const state: { stall: boolean } = { stall: false };
  const seen: ChatServer["seen"] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    if (state.stall) return;
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const message = reply(JSON.parse(text));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    get stall() {
      return state.stall;
    },
    set stall(v: boolean) {
      state.stall = v;
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
