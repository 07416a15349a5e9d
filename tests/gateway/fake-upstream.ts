/**
 * A provider stand-in on loopback for the proxy suite: every request it receives is kept (method,
 * path, headers, body, and whether its connection closed), and each test decides the reply.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** Resolves when the connection this request came on closed (the proxy gave up on it, or it ended). */
  readonly closed: Promise<void>;
}

export type Handler = (req: Received, res: http.ServerResponse) => void;

export interface FakeUpstream {
  /** `http://127.0.0.1:<port><basePath>`. */
  readonly baseUrl: string;
  readonly received: Received[];
  /** Replace the reply for the requests that follow. */
  handle(h: Handler): void;
  /** Resolves with the next request as soon as its body has arrived. */
  next(): Promise<Received>;
}

const open: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

export function json(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(text);
}

export async function fakeUpstream(basePath = "/v1"): Promise<FakeUpstream> {
  let handler: Handler = (_r, res) => json(res, 404, '{"error": {"message": "no handler"}}');
  const received: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => req.socket.once("close", () => resolve()));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), closed };
      received.push(r);
      waiting.shift()?.(r);
      handler(r, res);
    });
  });
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${basePath}`,
    received,
    handle: (h) => {
      handler = h;
    },
    next: () => new Promise((resolve) => waiting.push(resolve)),
  };
}
