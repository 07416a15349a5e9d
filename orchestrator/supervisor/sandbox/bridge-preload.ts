/**
 * Loaded with `--import` into a sealed worker, before workers/host.ts: inside the worker's own
 * network namespace, listen on `127.0.0.1:<port>` for each gateway port and forward every
 * connection to the Unix socket the orchestrator serves for that port (bridge.ts). The worker's
 * base URL therefore works unchanged, and it is the only thing that does.
 *
 * It runs inside the worker, so it imports nothing from the orchestrator (the rule of
 * docs/architecture.md) beyond its dependency-free sibling splice.ts. The routes come in
 * `ARENA_SANDBOX_BRIDGE` (JSON), which is removed from
 * the environment at once: a process the adapter forks inherits the `--import` flag, and finding
 * no routes it does nothing (it must not try to listen on ports its parent holds).
 */
import net from "node:net";
import { splice } from "./splice.ts";

const raw = process.env.ARENA_SANDBOX_BRIDGE;
delete process.env.ARENA_SANDBOX_BRIDGE;

if (raw !== undefined) {
  const routes = JSON.parse(raw) as { port: number; socket: string }[];
  await Promise.all(
    routes.map(
      ({ port, socket }) =>
        new Promise<void>((resolve) => {
          const server = net.createServer((inbound) => splice(inbound, net.connect(socket)));
          server.on("error", (err) => {
            // Without its bridge the worker cannot reach the gateway: fail the start, loudly.
            process.stderr.write(`sandbox bridge: cannot listen on 127.0.0.1:${port}: ${err.message}\n`);
            process.exit(70);
          });
          // Bridging must never be what keeps the worker alive.
          server.listen(port, "127.0.0.1", () => resolve());
          server.unref();
        }),
    ),
  );
}
