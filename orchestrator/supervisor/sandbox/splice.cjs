/**
 * Pipe two sockets into each other; either side failing or ending ends both. Used on both sides
 * of the sandbox's network bridge: by the orchestrator's forwarder (bridge.ts) and inside the
 * sealed worker (bridge-preload.cjs). Plain CommonJS that needs nothing but Node, for the same
 * reason as the preload: a sealed worker loads it with `--require`, before its own code.
 * Its types are in splice.d.cts.
 */
"use strict";

exports.splice = function splice(a, b) {
  const close = () => {
    a.destroy();
    b.destroy();
  };
  a.on("error", close).on("close", close);
  b.on("error", close).on("close", close);
  a.pipe(b);
  b.pipe(a);
};
