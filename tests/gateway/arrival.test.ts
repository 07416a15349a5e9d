/**
 * When a request started (gateway/arrival.ts), which decides whether a worker's hang-up waited the
 * run's request timeout (run/provider-faults.ts). A loaded orchestrator reads a worker's request
 * late; the start must not move with it, or an honest worker's full wait looks short and the
 * provider's hang is charged to it. A worker that opened its connection early and sent later must
 * not get that idle time counted as waiting.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { dumpsPy } from "@agentic-arena/py-semantics";
import { connectionMark, requestStart } from "../../orchestrator/gateway/arrival.ts";
import { createGateway, nowMs, type Gateway } from "../../orchestrator/gateway/index.ts";
import { registerInProcess } from "../../orchestrator/gateway/in-process.ts";
import { legAttempts } from "../../orchestrator/run/provider-faults.ts";
import { acquireRoutes, releaseRoutes } from "../../orchestrator/supervisor/sandbox/bridge.ts";

/** A loop clock the test drives: time, libuv iterations, and time spent waiting for I/O. */
function clock(now: number, loops: number, idleMs: number) {
  return { now: () => now, loops: () => loops, idleMs: () => idleMs };
}

describe("requestStart", () => {
  it("a request on a connection already in use starts when it is read", () => {
    expect(requestStart(undefined, clock(5000, 40, 100))).toBe(5000);
  });

  it("the first request read in the turn after the accept, without a wait for I/O, starts at the accept", () => {
    const accepted = connectionMark(clock(1000, 7, 50));
    // 700 ms of the orchestrator's own work between the accept and the read.
    expect(requestStart(accepted, clock(1700, 8, 50))).toBe(1000);
  });

  it("time the loop spent waiting for the worker's bytes after the accept is not counted", () => {
    const accepted = connectionMark(clock(1000, 7, 50));
    expect(requestStart(accepted, clock(1700, 8, 650))).toBe(1600);
  });

  it("a request read more than one turn after the accept starts when it is read", () => {
    const accepted = connectionMark(clock(1000, 7, 50));
    expect(requestStart(accepted, clock(1700, 9, 50))).toBe(1700);
  });
});

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };
const TIMEOUT_S = 2;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function busy(ms: number): void {
  for (const end = performance.now() + ms; performance.now() < end; );
}

/**
 * The worker's side, in a process of its own (the orchestrator's load must not hold it back): it
 * connects to its bridge socket, sends its request `sendAfterMs` later, and hangs up
 * `hangUpAfterMs` after sending, as a client with that timeout does.
 */
const WORKER = `
const net = require("node:net");
const [socket, request, sendAfter, hangUpAfter] = process.argv.slice(1);
const c = net.connect(socket, () => setTimeout(() => {
  c.write(request);
  setTimeout(() => { c.destroy(); process.exit(0); }, Number(hangUpAfter));
}, Number(sendAfter)));
c.on("error", () => process.exit(3));
`;

/**
 * A sealed worker's request to a gateway whose every answer is stalled (a provider that hangs),
 * through the bridge, with `blockMs` of the orchestrator's own work right after the accept (a
 * loaded loop). Returns the leg's attempts as the run judges them.
 */
async function hangUp(o: { sendAfterMs: number; hangUpAfterMs: number; blockMs: number }) {
  const gw: Gateway = createGateway({ script, stallSeconds: 30 });
  cleanup.push(() => gw.stop());
  await gw.start();
  const port = gw.address.port;
  // The gateway registered itself; this stands in front of it to add the load after the accept.
  cleanup.push(registerInProcess(port, { adopt: (s) => (gw.adopt(s), busy(o.blockMs)) }));
  const bridge = acquireRoutes([port], "vanilla/w0");
  cleanup.push(() => releaseRoutes(bridge));
  const body = dumpsPy({ messages: [{ role: "user", content: "hello" }] });
  const path = `${new URL(gw.baseUrlFor("w")).pathname}/chat/completions`;
  const request = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const worker = spawn(process.execPath, ["-e", WORKER, bridge.routes[0]!.socket, request, String(o.sendAfterMs), String(o.hangUpAfterMs)], { stdio: "ignore" });
  const code = await new Promise((r) => worker.once("exit", r));
  expect(code).toBe(0);
  // Let the hang-up reach the gateway.
  for (let i = 0; i < 100 && gw.recorder.attemptsFrom("w", 0)[0]?.closedAt == null; i++) await new Promise((r) => setTimeout(r, 10));
  const recorded = gw.recorder.attemptsFrom("w", 0);
  return { recorded, judged: legAttempts(recorded, new Set(), { now: nowMs(), requestTimeoutS: TIMEOUT_S }) };
}

describe("a worker's hang-up on a hung provider, through the bridge", () => {
  it("a full wait is the provider's timeout although the loaded orchestrator read the request 700 ms late", async () => {
    const { recorded, judged } = await hangUp({ sendAfterMs: 0, hangUpAfterMs: TIMEOUT_S * 1000, blockMs: 700 });
    const [attempt] = judged;
    // Measured from the read it would be ~1.3 s of a 2 s timeout: charged to the worker.
    expect(attempt!.waitedMs).toBeGreaterThanOrEqual(TIMEOUT_S * 1000 - 50);
    expect(attempt!.fault).toBe("timeout");
    // The read time stays on the record too: holds and stalls (the transport probe) are timed from it.
    expect(recorded[0]!.at - recorded[0]!.startedAt).toBeGreaterThanOrEqual(650);
  });

  it("a connection opened early and left idle does not count its idle time: a hang-up 0.7 s after sending is the worker's own", async () => {
    const [attempt] = (await hangUp({ sendAfterMs: 1000, hangUpAfterMs: 700, blockMs: 0 })).judged;
    // From the accept it would be ~1.7 s, past the 1.5 s that counts as the provider's.
    expect(attempt!.waitedMs).toBeLessThan(1000);
    expect(attempt!.fault).toBeNull();
  });
});
