/**
 * Loaded with `--require` into a sealed Node worker, before its host: inside the worker's own
 * network namespace, listen on each gateway port (its base URL's `127.0.0.1:<port>`) and forward every
 * connection to the Unix socket the orchestrator serves for that port (bridge.ts). The worker's
 * base URL therefore works unchanged, and it is the only thing that does.
 *
 * Plain CommonJS, not TypeScript loaded with `--import`: that brought up Node's ES module loader
 * and its type stripping in every sealed worker, for a file of twenty lines (docs/performance.md,
 * "The bridge preload as plain CommonJS"). It runs inside the worker, so it needs nothing from the
 * orchestrator (the rule of docs/architecture.md) beyond its dependency-free sibling splice.cjs.
 *
 * Each listener is bound to the port alone, with no address: inside the sandbox's own network
 * namespace, whose only interface is loopback, that reaches exactly what `127.0.0.1:<port>` would
 * (a new namespace starts with `bindv6only` off, so Node's dual-stack `::` takes IPv4; without
 * IPv6, Node binds `0.0.0.0`). Given an address, Node resolves it and tests it against its IPv6
 * pattern, whose first compile was ~6 ms of CPU in every sealed worker.
 *
 * The listeners are bound before the worker's own code runs, without waiting on them: with no
 * address to resolve, `listen` binds at once. A port that cannot be bound exits the worker (code
 * 70) on the next tick, before the event loop reads the IPC channel through which the host gets
 * the job that would make it connect.
 *
 * The routes come in `ARENA_SANDBOX_BRIDGE` (JSON), which is removed from the environment at
 * once: a process the adapter forks inherits the `--require` flag, and finding no routes it does
 * nothing (it must not try to listen on ports its parent holds).
 */
"use strict";

const net = require("node:net");
const { splice } = require("./splice.cjs");

const raw = process.env.ARENA_SANDBOX_BRIDGE;
delete process.env.ARENA_SANDBOX_BRIDGE;

if (raw !== undefined) {
  for (const { port, socket } of JSON.parse(raw)) {
    const server = net.createServer((inbound) => splice(inbound, net.connect(socket)));
    server.on("error", (err) => {
      // Without its bridge the worker cannot reach the gateway: fail the start, loudly.
      process.stderr.write(`sandbox bridge: cannot listen on port ${port}: ${err.message}\n`);
      process.exit(70);
    });
    server.listen(port);
    // Bridging must never be what keeps the worker alive.
    server.unref();
  }
}
