/**
 * The only way out of a sealed worker's network namespace: for each gateway port, a Unix socket
 * in a directory the sandbox can see, served here by a forwarder to `127.0.0.1:<port>`. Inside
 * the namespace, bridge-preload.ts listens on the same `127.0.0.1:<port>` and forwards each
 * connection to the socket, so a worker's base URL is byte-for-byte the one an unsealed worker
 * gets, and nothing but those ports is reachable.
 *
 * Forwarders are shared by every sealed worker of this process and counted: the last worker of a
 * port to exit closes its forwarder (and Node unlinks the socket), so a long-lived process (a
 * test run of many runs) does not accumulate listeners for gateways that are long gone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { splice } from "./splice.ts";

export interface BridgeRoute {
  readonly port: number;
  readonly socket: string;
}

interface Forwarder {
  readonly server: net.Server;
  users: number;
}

const forwarders = new Map<number, Forwarder>();
let socketDir: string | undefined;

function socketPath(port: number): string {
  // Short on purpose: a Unix socket path is limited to ~108 bytes.
  socketDir ??= mkdtempSync(path.join(os.tmpdir(), "arena-bridge-"));
  return path.join(socketDir, `${port}.sock`);
}

/** A forwarder for each port (opened if needed), counted for one worker. */
export function acquireRoutes(ports: readonly number[]): BridgeRoute[] {
  return [...new Set(ports)].map((port) => {
    let f = forwarders.get(port);
    if (!f) {
      const server = net.createServer((inbound) => splice(inbound, net.connect(port, "127.0.0.1")));
      // Listening on a path binds synchronously: the socket exists before the worker starts.
      server.listen(socketPath(port));
      // A forwarder that cannot listen is dropped: the worker's requests then fail as infra errors.
      server.on("error", () => {
        if (forwarders.get(port)?.server === server) forwarders.delete(port);
      });
      // Never what keeps the orchestrator alive.
      server.unref();
      f = { server, users: 0 };
      forwarders.set(port, f);
    }
    f.users += 1;
    return { port, socket: socketPath(port) };
  });
}

/** The worker that acquired `routes` is gone. */
export function releaseRoutes(routes: readonly BridgeRoute[]): void {
  for (const { port } of routes) {
    const f = forwarders.get(port);
    if (!f) continue;
    f.users -= 1;
    if (f.users > 0) continue;
    forwarders.delete(port);
    f.server.close();
  }
  if (forwarders.size === 0 && socketDir) {
    rmSync(socketDir, { recursive: true, force: true });
    socketDir = undefined;
  }
}

/** Linux refuses a Unix socket path past 107 bytes; a very long TMPDIR leaves the network shared. */
export function socketsFit(tmp = os.tmpdir()): boolean {
  return Buffer.byteLength(path.join(tmp, "arena-bridge-XXXXXX", "65535.sock")) <= 107;
}

/** Loopback http endpoints give their ports; anything else means the network cannot be sealed. */
export function loopbackPorts(urls: readonly string[]): { ok: true; ports: number[] } | { ok: false; reason: string } {
  const ports: number[] = [];
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: `the gateway URL ${raw} does not parse` };
    }
    // Only the literal the mock gateway uses: `localhost` could resolve to ::1 inside the namespace.
    if (url.protocol !== "http:" || url.hostname !== "127.0.0.1") {
      return { ok: false, reason: `the gateway ${url.origin} is not on loopback` };
    }
    ports.push(url.port === "" ? 80 : Number(url.port));
  }
  return { ok: true, ports };
}
