/**
 * Child process for faults.test.ts: a 30 s stall, a client that gives up 200 ms after its request
 * reached the gateway, then stop(). The process must exit right away: nothing the stall left
 * behind may hold the event loop.
 */
import { createGateway } from "../../orchestrator/gateway/index.ts";

const gw = createGateway({ script: { scenarios: [] }, stallSeconds: 30 });
const { baseUrl } = await gw.start();
const client = new AbortController();
const request = fetch(`${baseUrl}/chat/completions`, { method: "POST", body: "{}", signal: client.signal }).catch(() => {
  // Expected: the client gives up.
});
// On a loaded machine the request can take a while to arrive; give up only once it is held.
while (gw.recorder.lifetimeAttempts === 0) await new Promise((r) => setTimeout(r, 10));
await new Promise((r) => setTimeout(r, 200));
client.abort();
await request;
await new Promise((r) => setTimeout(r, 50));
await gw.stop();
const [attempt] = gw.recorder.attempts;
process.stdout.write(JSON.stringify({ outcome: attempt?.outcome, requests: gw.recorder.requests.length }));
