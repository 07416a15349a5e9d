/**
 * A stand-in for a live OpenAI-compatible provider on loopback: lists one model, and answers chat
 * completions with whatever the test says — a right answer, a 503, a 401 that echoes the key.
 * Live-mode tests run against it; nothing leaves the machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ProviderReply {
  readonly status: number;
  readonly body: unknown;
}

export interface FakeProvider {
  readonly baseUrl: string;
  /** Chat completion requests answered so far. */
  readonly completions: () => number;
  close(): Promise<void>;
}

export const FAKE_MODEL = "fake-model-1";

export function answer(content: string): ProviderReply {
  return {
    status: 200,
    body: {
      id: "c1",
      object: "chat.completion",
      model: FAKE_MODEL,
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    },
  };
}

/** `reply` may answer later (a promise): a test holds an item in flight until it has acted on the run. */
export async function fakeProvider(reply: (n: number, body: string) => ProviderReply | Promise<ProviderReply>): Promise<FakeProvider> {
  let completions = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const send = (r: ProviderReply) => {
        res.writeHead(r.status, { "content-type": "application/json" });
        res.end(JSON.stringify(r.body));
      };
      if (req.method === "GET" && req.url === "/v1/models") return send({ status: 200, body: { object: "list", data: [{ id: FAKE_MODEL }] } });
      if (req.method === "POST" && req.url === "/v1/chat/completions") return void Promise.resolve(reply(completions++, body)).then(send);
      send({ status: 404, body: { error: { message: "not found" } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    completions: () => completions,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // A reply still held (its client was killed) must not keep the server open.
        server.closeAllConnections();
      }),
  };
}
