/**
 * Gateway throughput and latency (docs/performance.md, "Gateway"). Not a test: numbers depend on
 * the machine and on whatever else it is doing.
 *
 * The gateway runs in this process on the tool_use script; the load comes from a second process
 * (gateway-bench/load-client.ts) over keep-alive loopback connections, at 1, 8 and 32 concurrent
 * clients. Every request is a realistic tool_use turn-0 request (arena system prompt, user
 * question, the two canonical tool specs) and is answered with the scripted calculator call, so
 * each reply runs the full path: parse, select, bill (Python json.dumps of messages + tools),
 * render, record.
 *
 * After each gateway level the same load runs against a bare node:http server sending the same
 * reply bytes (the "floor"), so the figures can be read against what loopback HTTP costs on the
 * machine at that moment. Before the floor, the same load runs again with the witness judging
 * every served request on the gateway's own thread ("gateway + witness", gateway-bench/witnessing.ts;
 * --no-witness leaves it out): the throughput a run keeps with every rule on.
 *
 * The "spill" section (after it, or alone with --section spill) sends --requests bodies of
 * --body-mb MB each to a gateway in a child process, once with the default record budget and once
 * with none (every body held, as before the budget existed), and prints the gateway process's RSS
 * before and after, what the recorder holds and spilled, and whether every record reads back equal.
 *
 * The "witness" section (scripts/witness-cost.ts) runs a mock bench and reports what the witness
 * cost per item and per request inside that run, with every adapter's real declarations.
 *
 * The sections live in gateway-bench/: throughput.ts (with load.ts, floor.ts), spill.ts (with its
 * gateway process, spill-gateway.ts), the request bodies in tool-use-request.ts and the tables in
 * report.ts.
 *
 * Usage: node scripts/gateway-bench.ts [--section all|throughput|spill|witness] [--seconds N] [--warmup N]
 *        [--levels 1,8,32] [--no-floor] [--no-witness] [--requests 80] [--body-mb 7.5]
 */
import { parseArgs } from "node:util";
import { spill } from "./gateway-bench/spill.ts";
import { throughput } from "./gateway-bench/throughput.ts";
import { loadToolUseRequest } from "./gateway-bench/tool-use-request.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    levels: { type: "string", default: "1,8,32" },
    "no-floor": { type: "boolean", default: false },
    "no-witness": { type: "boolean", default: false },
    section: { type: "string", default: "all" },
    requests: { type: "string", default: "80" },
    "body-mb": { type: "string", default: "7.5" },
  },
});
const section = values.section;
if (!["all", "throughput", "spill", "witness"].includes(section)) throw new Error(`--section must be all, throughput, spill or witness, got ${section}`);

const request = loadToolUseRequest();
if (section === "all" || section === "throughput") {
  const options = { seconds: Number(values.seconds), warmup: Number(values.warmup), levels: values.levels.split(",").map(Number), floor: !values["no-floor"], witness: !values["no-witness"] };
  process.stdout.write(await throughput(request, options));
}
if (section === "all" || section === "spill") process.stdout.write(await spill(request, { requests: Number(values.requests), bodyMb: Number(values["body-mb"]) }));
// Checking must keep up with the gateway: the witness's cost per request, beside the reply time above.
if (section === "all" || section === "witness") process.stdout.write(`\n${await (await import("./witness-cost.ts")).witnessCost()}`);
