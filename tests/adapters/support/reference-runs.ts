/**
 * One adapter alone on the original project's reference arenas (golden.md), for the suites that
 * compare its bill with the baseline's: every record's usage is checked equal to what the
 * gateway served before any figure is read from it.
 */
import path from "node:path";
import type { AdapterRecord } from "../../../orchestrator/report/record.ts";
import { REFERENCE_ARENAS, REFERENCE_CORPUS } from "../../support/reference.ts";
import { adapterEntry, quickRun } from "../../support/run.ts";
import { expectUsageEqualsServed, adapterRecordOf, passCount } from "./records.ts";

export async function onReferenceArenas(adapter: string, arenas: readonly string[]): Promise<Map<string, AdapterRecord>> {
  const { records } = await quickRun({ arenaDirs: arenas.map((a) => path.join(REFERENCE_ARENAS, a)), adapters: [adapterEntry(adapter)], corpusPath: REFERENCE_CORPUS });
  for (const record of records) expectUsageEqualsServed(record.arena, adapterRecordOf(record).items);
  return new Map(records.map((r) => [r.arena, adapterRecordOf(r)]));
}

export const total = (adapterRecord: AdapterRecord, k: "prompt_tokens" | "completion_tokens" | "llm_calls") => adapterRecord.items.reduce((a, i) => a + i[k], 0);

/** A pipeline variant on the reference multi_agent arena: pass count, Σ prompt, Σ completion, Σ calls. */
export async function referencePipelineBill(adapter: string): Promise<[string, number, number, number]> {
  const adapterRecord = (await onReferenceArenas(adapter, ["multi_agent"])).get("multi_agent")!;
  return [passCount(adapterRecord), total(adapterRecord, "prompt_tokens"), total(adapterRecord, "completion_tokens"), total(adapterRecord, "llm_calls")];
}
