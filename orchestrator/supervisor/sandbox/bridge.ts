/**
 * The only way out of a sealed worker's network namespace: for each gateway port, a Unix socket
 * in a directory the sandbox can see, served here. Inside the namespace, bridge-preload.cjs listens
 * on the same `127.0.0.1:<port>` and forwards each connection to the socket, so a worker's base URL
 * is byte-for-byte the one an unsealed worker gets, and nothing but those ports is reachable.
 *
 * Here, each connection the worker opens goes to the gateway on its port one of two ways. When that
 * gateway runs in this process (the run's mock gateway or live proxy: gateway/in-process.ts), the
 * accepted socket is handed to it as its own connection: one read and one write per byte in this
 * process instead of two of each over a second, TCP connection (docs/performance.md, targets 2c and
 * 6), and the gateway sees the moment the worker's connection arrived (gateway/arrival.ts). Any
 * other port (a gateway in another process) is forwarded to `127.0.0.1:<port>` over TCP.
 *
 * Each sealed worker has sockets of its own, one per gateway port, so the orchestrator knows which
 * worker every bridged connection comes from, and {@link bridgedSender} answers for it: by the
 * socket object for a connection handed over, and by the local port of the forwarded connection
 * to the gateway (noted before a byte is sent) for one forwarded. The gateway uses that to name
 * the sender of a request it refuses (gateway/identity.ts). A worker's sockets close when it exits
 * (Node unlinks them), so a long-lived process (a test run of many runs) does not accumulate
 * listeners.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inProcessGateway } from "../../gateway/in-process.ts";
import { removeInBackground } from "./background-removal.ts";
import { splice } from "./splice.cjs";

/** The inside half: the preload a sealed Node worker starts with (`--require`), which opens the listeners. */
export const BRIDGE_PRELOAD = fileURLToPath(new URL("./bridge-preload.cjs", import.meta.url));
/** The only orchestrator files a sealed Node worker reads: the preload and the one sibling it requires. */
export const BRIDGE_PRELOAD_FILES: readonly string[] = [BRIDGE_PRELOAD, fileURLToPath(new URL("./splice.cjs", import.meta.url))];

export interface BridgeRoute {
  readonly port: number;
  readonly socket: string;
}

/** A worker's bridge sockets, as acquireRoutes hands them out. */
export interface Bridge {
  readonly routes: readonly BridgeRoute[];
  readonly servers: readonly net.Server[];
}

let socketDir: string | undefined;
let openBridges = 0;
let bridgesMade = 0;
/** Local port of each live forwarded connection to a gateway → the worker it was opened for. */
const senders = new Map<number, string>();
/** Each socket handed to an in-process gateway → the worker it came from (gone with the socket). */
const handed = new WeakMap<net.Socket, string>();

function newSocketDir(): string {
  // Short on purpose: a Unix socket path is limited to ~108 bytes.
  socketDir ??= mkdtempSync(path.join(os.tmpdir(), "arena-bridge-"));
  return socketDir;
}

/** The worker a bridged connection came from, given the gateway's side of it: the handed-over socket itself, or a forwarded one by its peer's port. */
export function bridgedSender(socket: net.Socket): string | undefined {
  const port = socket.remotePort;
  return handed.get(socket) ?? (port === undefined ? undefined : senders.get(port));
}

/** Sockets for `sender` (e.g. `vanilla/w3`), one per port, listening before the worker starts. */
export function acquireRoutes(ports: readonly number[], sender: string): Bridge {
  // A folder per worker: the sandbox binds only its own, so no worker can dial another's sockets.
  const dir = path.join(newSocketDir(), String(bridgesMade++));
  mkdirSync(dir);
  openBridges += 1;
  const servers: net.Server[] = [];
  const routes = [...new Set(ports)].map((port) => {
    const socket = path.join(dir, `${port}.sock`);
    const server = net.createServer((inbound) => {
      // Looked up at each connection: a gateway that stops is no longer handed anything.
      const gateway = inProcessGateway(port);
      if (gateway !== undefined) {
        handed.set(inbound, sender);
        gateway.adopt(inbound);
        return;
      }
      forward(inbound, port, sender);
    });
    // Listening on a path binds synchronously: the socket exists before the worker starts. One
    // that cannot listen leaves the worker's requests failing as infra errors, never silently bridged elsewhere.
    server.listen(socket);
    server.on("error", () => {});
    // Never what keeps the orchestrator alive.
    server.unref();
    servers.push(server);
    return { port, socket };
  });
  return { routes, servers };
}

/** A connection to a gateway in another process: piped into a TCP connection to its port. */
function forward(inbound: net.Socket, port: number, sender: string): void {
  const outbound = net.connect(port, "127.0.0.1");
  const failed = () => inbound.destroy();
  outbound.once("error", failed);
  // The worker may hang up before the gateway answers the connect; either side's error ends both.
  inbound.on("error", () => outbound.destroy());
  // Nothing flows before the sender is noted: the inbound socket buffers until it is piped.
  outbound.once("connect", () => {
    outbound.off("error", failed);
    const local = outbound.localPort;
    if (local !== undefined) {
      senders.set(local, sender);
      outbound.once("close", () => senders.delete(local));
    }
    splice(inbound, outbound);
  });
}

/** The worker that acquired `bridge` is gone. */
export function releaseRoutes(bridge: Bridge): void {
  for (const server of bridge.servers) server.close();
  const dir = bridge.routes[0] ? path.dirname(bridge.routes[0].socket) : undefined;
  openBridges -= 1;
  // Off the loop: the worker's socket folder was bound into its sandbox (background-removal.ts).
  const last = openBridges === 0 ? socketDir : undefined;
  if (last !== undefined) socketDir = undefined;
  removeInBackground([...(dir ? [dir] : []), ...(last ? [last] : [])]);
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
