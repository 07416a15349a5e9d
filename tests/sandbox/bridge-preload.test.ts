/**
 * The sealed Node worker's bridge preload on its own (orchestrator/supervisor/sandbox/bridge-preload.cjs),
 * in a network namespace of its own as a sealed worker has: a connection to the gateway's
 * `127.0.0.1:<port>` reaches the Unix socket of its route, the routes leave the environment before
 * the worker's code runs, and a port it cannot listen on ends the start in one line with exit 70
 * (the Python host's bridge does the same: tests/hosts/python-host.test.ts). The whole sealed path
 * is tests/sandbox/sealed.test.ts. Skipped where bwrap does not work.
 */
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE_FLAGS, detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";

const PRELOAD = fileURLToPath(new URL("../../orchestrator/supervisor/sandbox/bridge-preload.cjs", import.meta.url));
const bwrap = detectBwrap();

/** `node --require <preload> -e script` inside bwrap with its own network namespace (only loopback). */
function sealedNode(routes: readonly { port: number; socket: string }[], script: string) {
  if (!bwrap.ok) throw new Error("unreachable");
  return execa(bwrap.bwrap.path, [...BASE_FLAGS, "--unshare-net", "--", process.execPath, "--require", PRELOAD, "-e", script], {
    env: { PATH: process.env.PATH ?? "", ARENA_SANDBOX_BRIDGE: JSON.stringify(routes) },
    extendEnv: false,
    reject: false,
    timeout: 15_000,
  });
}

describe.skipIf(!bwrap.ok)("the bridge preload", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "arena-preload-"));
  const socket = path.join(dir, "gateway.sock");
  const gateway = net.createServer((s) => s.once("data", (d) => s.end(`gateway got ${d.toString()}`)));
  beforeAll(() => new Promise<void>((resolve) => gateway.listen(socket, resolve)));
  afterAll(() => new Promise<void>((resolve) => gateway.close(() => resolve())));

  it("carries a connection to 127.0.0.1:<port> to the route's Unix socket; the routes are gone from the environment", async () => {
    const script = [
      "const left = process.env.ARENA_SANDBOX_BRIDGE;",
      "const s = require('net').connect(4321, '127.0.0.1', () => s.write('ping'));",
      "let got = ''; s.on('data', (d) => (got += d)); s.on('end', () => console.log(JSON.stringify({ got, left: left ?? null })));",
      "s.on('error', (e) => { console.log(JSON.stringify({ error: e.code })); });",
    ].join("");
    const r = await sealedNode([{ port: 4321, socket }], script);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ got: "gateway got ping", left: null });
  });

  it("reaches nothing but its routes' ports", async () => {
    const script = "require('net').connect(4322, '127.0.0.1').on('connect', () => console.log('connected')).on('error', (e) => console.log(e.code));";
    const r = await sealedNode([{ port: 4321, socket }], script);
    expect(r.stdout.trim()).toBe("ECONNREFUSED");
  });

  it("a port it cannot listen on fails the start in one line, exit 70, before the worker's own I/O", async () => {
    // The second route's port is the first's: its listen fails as a port held by anything else would.
    const script = "setImmediate(() => console.log('the worker ran its I/O'));";
    const r = await sealedNode(
      [
        { port: 4321, socket },
        { port: 4321, socket },
      ],
      script,
    );
    expect(r.exitCode).toBe(70);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^sandbox bridge: cannot listen on port 4321: listen EADDRINUSE: address already in use [^\n]*:4321$/);
  });
});
