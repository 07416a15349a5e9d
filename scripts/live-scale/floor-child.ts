/**
 * The floor of scripts/live-scale.ts: what the same run costs with nothing of ours in it. A bare
 * HTTP server holds every reply `--hold` seconds; for each item, a fresh `node` process (a worker
 * is one) makes that item's LLM calls one after another with fetch; `--inflight` such processes at
 * a time. Reads the per-item call counts as JSON on stdin; prints `{ wall }`.
 */
import http from "node:http";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { text } from "node:stream/consumers";

const { values } = parseArgs({ options: { inflight: { type: "string", default: "64" }, hold: { type: "string", default: "0.5" } } });
const holdMs = Number(values.hold) * 1000;
const calls = JSON.parse(await text(process.stdin)) as number[];

const reply = JSON.stringify({ choices: [{ message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 1, completion_tokens: 1 } });
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => setTimeout(() => res.end(reply), holdMs));
});
// Past Node's 5 s default: on a loaded machine a client's next call can come later than that, and
// a socket the server closes as the client reuses it fails the call ("other side closed").
server.keepAliveTimeout = 120_000;
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as { port: number }).port;

const clientCode = (n: number) =>
  `for (let i = 0; i < ${n}; i++) { const r = await fetch("http://127.0.0.1:${port}/", { method: "POST", body: "{}" }); await r.text(); }`;

function one(n: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", clientCode(n)], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`floor client exited ${code}`))));
  });
}

const t0 = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: Number(values.inflight) }, async () => {
    while (next < calls.length) await one(calls[next++]!);
  }),
);
const wall = (performance.now() - t0) / 1000;
server.close();
process.stdout.write(`${JSON.stringify({ wall })}\n`);
