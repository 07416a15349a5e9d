/**
 * The gateway process of the spill section, forked by spill.ts so that its RSS is the gateway's
 * alone. Answers the commands of spill-messages.ts over IPC.
 *
 * Usage (by spill.ts only): node --expose-gc scripts/gateway-bench/spill-gateway.ts <recordBudgetBytes>
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { dumpsPy } from "@agentic-arena/py-semantics";
import { sha, type FromGateway, type Mem, type SpillCommand } from "./spill-messages.ts";
import { ARENA_TOOLS, loadToolUseRequest } from "./tool-use-request.ts";

const budget = Number(process.argv[2]);
const { arena } = loadToolUseRequest();
const dir = mkdtempSync(path.join(tmpdir(), "gateway-spill-bench-"));
const gateway = createGateway({ script: arena.script, arenaTools: ARENA_TOOLS, recordBudgetBytes: budget, spillDir: dir });
const { baseUrl } = await gateway.start();
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
// After a full collection, so the figure is what is held rather than what is garbage.
const mem = (): Mem => (gc(), gc(), { ...process.memoryUsage(), recorder: gateway.recorder.memory });
const reply = (m: FromGateway) => process.send?.(m);
reply({ url: `${baseUrl}/chat/completions`, mem: mem() });
process.on("message", (cmd: SpillCommand) => {
  if (cmd === "held") reply({ held: gateway.recorder.memory.heldBytes });
  else if (cmd === "mem") reply({ mem: mem() });
  else if (cmd === "verify") {
    const t0 = performance.now();
    const hashes = gateway.recorder.records().requests.map((r) => sha(dumpsPy(r.body)));
    reply({ hashes, readMs: performance.now() - t0, mem: mem() });
  } else if (cmd === "stop") {
    void gateway.stop().then(() => {
      reply({ left: readdirSync(dir) });
      rmSync(dir, { recursive: true, force: true });
      process.disconnect();
    });
  }
});
