/**
 * The gateways listening in this process, by their loopback port. The sandbox bridge
 * (supervisor/sandbox/bridge.ts) looks a sealed worker's port up here and, when the gateway is
 * ours, hands the worker's accepted socket straight to it instead of dialing the port: the bytes
 * then cross the orchestrator once, not twice (docs/performance.md, targets 2c and 6). A port not
 * listed here (a gateway in another process, or one that has stopped) is forwarded over TCP as
 * before. Imports nothing, so both sides may use it without a cycle.
 */
import type { Socket } from "node:net";

export interface InProcessGateway {
  /** Serve `socket` as a connection this gateway accepted itself. */
  adopt(socket: Socket): void;
}

const byPort = new Map<number, InProcessGateway>();

/** `gateway` now listens on `port`; returns the call that withdraws it (when it stops listening). */
export function registerInProcess(port: number, gateway: InProcessGateway): () => void {
  byPort.set(port, gateway);
  return () => {
    // Only its own entry: a later gateway may have been given the same port since.
    if (byPort.get(port) === gateway) byPort.delete(port);
  };
}

/** The gateway of this process listening on `port`, if there is one. */
export function inProcessGateway(port: number): InProcessGateway | undefined {
  return byPort.get(port);
}
