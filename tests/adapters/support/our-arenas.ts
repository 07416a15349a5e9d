/**
 * One run of our seven arenas through the real orchestrator, shared by every test of the suite
 * that asks for it: the run is the expensive part (real workers, a restart at every durable
 * pause), the tests only read its records and what the gateway received. Also a pipeline
 * variant's run on our multi_agent arena, with what every variant must show on it.
 */
import path from "node:path";
import { beforeAll, expect } from "vitest";
import { loadArena } from "../../../orchestrator/arena/load.ts";
import type { RequestRecord } from "../../../orchestrator/gateway/index.ts";
import type { AdapterRecord } from "../../../orchestrator/report/record.ts";
import type { AdapterEntry } from "../../../orchestrator/run/index.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../../support/run.ts";
import { expectUsageEqualsServed, adapterRecordOf, OUR_SEVEN, passCount } from "./records.ts";
import { bodiesOf, conversations, requestsOf, type Body } from "./wire.ts";

export interface OurArenas {
  /** An adapter's record in one arena: the suite's first adapter unless another is named. */
  recordOn(arena: string, name?: string): AdapterRecord;
  /** The requests an adapter sent in one arena, as the gateway recorded them. */
  requests(arena: string, name?: string): RequestRecord[];
  /** The same requests as plain JSON bodies. */
  bodies(arena: string, name?: string): Body[];
  /** The subject's pass count in each arena, to hold against ALL_PASSED and its exceptions. */
  passCounts(): Record<string, string>;
  /** The subject reported, in every arena, item and leg, exactly the usage the gateway served. */
  expectUsageAsServed(): void;
}

/**
 * Registers the run in the enclosing `describe` (a `beforeAll`, so a filtered-out suite never
 * pays for it) and hands back its reader. The first adapter is the suite's subject; any others
 * ride in the same run, side by side on the same gateways.
 */
export function ourArenas(...adapters: (string | AdapterEntry)[]): OurArenas {
  const entries = adapters.map((a) => (typeof a === "string" ? adapterEntry(a) : a));
  const subject = entries[0]!.name;
  let outcome: Awaited<ReturnType<typeof quickRun>> | undefined;
  beforeAll(async () => {
    outcome = await quickRun({ arenaDirs: OUR_SEVEN.map((a) => path.join(OUR_ARENAS, a)), adapters: entries, corpusPath: OUR_CORPUS });
  }, 600_000);
  const ran = () => {
    if (!outcome) throw new Error("ourArenas: the run has not finished (read it inside a test)");
    return outcome;
  };
  const requests = (arena: string, name = subject) => requestsOf(ran().gatewayRecords.get(arena), name, arena);
  const adapterRecordOn = (arena: string, name = subject) => ran().records.find((r) => r.arena === arena)!.frameworks.find((f) => f.framework === name)!;
  return {
    recordOn: adapterRecordOn,
    requests,
    bodies: (arena, name) => bodiesOf(requests(arena, name)),
    passCounts: () => Object.fromEntries(OUR_SEVEN.map((a) => [a, passCount(adapterRecordOn(a))])),
    expectUsageAsServed: () => {
      for (const arena of OUR_SEVEN) expectUsageEqualsServed(arena, adapterRecordOn(arena).items);
    },
  };
}

/**
 * A pipeline variant alone on our multi_agent arena: it runs as a variant, passes every item and
 * reports the usage it was served. Its record, the arena's prompt (each stage's system prompt
 * starts with it) and each item's requests in arrival order.
 */
export async function ourPipelineRun(adapter: string) {
  const arena = path.join(OUR_ARENAS, "multi_agent");
  const { records, gatewayRecords } = await quickRun({ arenaDirs: [arena], adapters: [adapterEntry(adapter)], corpusPath: OUR_CORPUS });
  const adapterRecord = adapterRecordOf(records[0]!);
  expect([adapterRecord.variant, passCount(adapterRecord)]).toEqual([true, "12/12"]);
  expectUsageEqualsServed("multi_agent", adapterRecord.items);
  const items = [...conversations(bodiesOf(gatewayRecords.get("multi_agent")!.requests)).values()];
  return { adapterRecord, prompt: loadArena(arena).systemPrompt, items };
}
