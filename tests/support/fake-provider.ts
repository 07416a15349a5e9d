/**
 * A stand-in for a live OpenAI-compatible provider on loopback: lists one model, and answers chat
 * completions with whatever the test says — a right answer, a 503, a 401 that echoes the key — or
 * misbehaves the ways real providers do: resets the connection, hangs, drips a few bytes and
 * stalls, sends a 200 that is not JSON, or dies (stops listening, drops every connection).
 * Live-mode tests run against it; nothing leaves the machine. What it does is decided by the
 * request (its count, its body), never by timing.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";

export interface ProviderReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a real provider does wrong, on the wire. */
export type ProviderMisdeed =
  /** Destroy the connection before any reply (the client sees a reset / socket hang up). */
  | { readonly kind: "reset" }
  /** Never answer; the connection stays open until the client gives up. */
  | { readonly kind: "hang" }
  /** Send a 200's headers and the first bytes of a body, then nothing more. */
  | { readonly kind: "drip" }
  /** A status with a body that is not JSON (an HTML error page from a load balancer). */
  | { readonly kind: "raw"; readonly status: number; readonly text: string }
  /** Stop listening and drop every connection, this one included: the provider is gone. */
  | { readonly kind: "die" };

export interface FakeProvider {
  readonly baseUrl: string;
  /** Chat completion requests answered so far. */
  readonly completions: () => number;
  /** Whether a `die` has taken the provider down. */
  readonly dead: () => boolean;
  /** After a `die`: listen again on the same port (the provider is back). */
  revive(): Promise<void>;
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
export async function fakeProvider(reply: (n: number, body: string) => ProviderReply | ProviderMisdeed | Promise<ProviderReply | ProviderMisdeed>): Promise<FakeProvider> {
  let completions = 0;
  let dead = false;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const send = (r: ProviderReply) => {
        res.writeHead(r.status, { "content-type": "application/json", ...r.headers });
        res.end(JSON.stringify(r.body));
      };
      if (req.method === "GET" && req.url === "/v1/models") return send({ status: 200, body: { object: "list", data: [{ id: FAKE_MODEL }] } });
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") return send({ status: 404, body: { error: { message: "not found" } } });
      void Promise.resolve(reply(completions++, body)).then((r) => {
        if (!("kind" in r)) return send(r);
        switch (r.kind) {
          case "reset":
            return void req.socket.destroy();
          case "hang":
            return;
          case "drip":
            res.writeHead(200, { "content-type": "application/json", "content-length": "4096" });
            return void res.write('{"id": "c1", "choices": [');
          case "raw":
            res.writeHead(r.status, { "content-type": "text/html" });
            return void res.end(r.text);
          case "die":
            dead = true;
            server.close();
            for (const s of sockets) s.destroy();
            return;
        }
      });
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    completions: () => completions,
    dead: () => dead,
    revive: () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
          server.off("error", reject);
          dead = false;
          resolve();
        });
      }),
    close: () =>
      new Promise((resolve) => {
        // A reply still held (its client was killed) must not keep the server open.
        for (const s of sockets) s.destroy();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}
