/**
 * Pipe two sockets into each other; either side failing or ending ends both. Used on both sides
 * of the sandbox's network bridge: by the orchestrator's forwarder (bridge.ts) and inside the
 * sealed worker (bridge-preload.ts), so it imports nothing but Node.
 */
import type net from "node:net";

export function splice(a: net.Socket, b: net.Socket): void {
  const close = () => {
    a.destroy();
    b.destroy();
  };
  a.on("error", close).on("close", close);
  b.on("error", close).on("close", close);
  a.pipe(b);
  b.pipe(a);
}
