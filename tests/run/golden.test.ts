/**
 * The baseline reproduces the reference project's published figures exactly (golden.md): same
 * arena data, same corpus, same usage accounting. Sums of integers must match, so every mean
 * matches to every decimal.
 */
import path from "node:path";
import { expect, it } from "vitest";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { adapterEntry, quickRun } from "../support/run.ts";
import { scorecardRows } from "../../orchestrator/report/scorecard.ts";

// golden.md §1 and §3: per item (prompt, completion, LLM calls).
const PER_ITEM: Record<string, string> = {
  tool_use:
    "tu-01 616/35/2; tu-02 616/35/2; tu-03 620/37/2; tu-04 618/37/2; tu-05 804/43/2; tu-06 786/42/2; tu-07 806/53/2; tu-08 788/52/2; tu-09 742/44/2; tu-10 686/47/2; tu-11 652/39/2; tu-12 1423/84/3; tu-13 665/36/2; tu-14 662/40/2; tu-15 819/53/2",
  structured_output:
    "so-01 688/51/2; so-02 573/56/2; so-03 669/55/2; so-04 704/58/2; so-05 617/51/2; so-06 670/48/2; so-07 563/51/2; so-08 680/51/2; so-09 571/51/2; so-10 689/56/2; so-11 672/53/2; so-12 688/58/2; so-13 680/56/2; so-14 684/50/2; so-15 629/53/2",
  rag: "rag-01 698/46/2; rag-02 577/44/2; rag-03 602/51/2; rag-04 660/43/2; rag-05 708/46/2; rag-06 712/50/2; rag-07 718/54/2; rag-08 695/42/2; rag-09 709/46/2; rag-10 1415/86/3; rag-11 1457/82/3; rag-12 1490/92/3; rag-13 657/69/2; rag-14 694/62/2; rag-15 725/64/2",
  resilience:
    "res-01 661/34/2; res-02 655/34/2; res-03 668/38/2; res-04 661/31/2; res-05 663/40/2; res-06 657/33/2; res-07 683/45/2; res-08 660/30/2",
  multi_agent:
    "ma-01 742/80/2; ma-02 724/87/2; ma-03 671/83/2; ma-04 724/85/2; ma-05 617/84/2; ma-06 625/98/2; ma-07 740/97/2; ma-08 722/81/2; ma-09 619/81/2; ma-10 629/86/2",
  human_in_the_loop:
    "hitl-01 2119/117/4; hitl-02 2115/116/4; hitl-03 2108/119/4; hitl-04 2084/117/4; hitl-05 2066/116/4; hitl-06 2087/119/4; hitl-07 1481/101/3; hitl-08 1464/98/3; hitl-09 1458/100/3; hitl-10 1460/101/3; hitl-11 1444/98/3; hitl-12 1469/100/3",
  durable_state:
    "dur-01 3581/149/5; dur-02 3420/146/5; dur-03 3972/161/5; dur-04 3324/146/5; dur-05 3634/151/5; dur-06 3878/157/5; dur-07 3058/154/5; dur-08 3526/146/5",
};
const PIPELINE =
  "ma-01 1870/180/4; ma-02 1827/197/4; ma-03 1665/189/4; ma-04 1836/197/4; ma-05 1507/192/4; ma-06 1573/234/4; ma-07 1915/231/4; ma-08 1817/183/4; ma-09 1504/183/4; ma-10 1539/194/4";

// golden.md §1: items, Σ prompt, Σ completion, Σ calls; scorecard total_tokens, mean_tokens, mean_llm_calls, est_cost_usd.
const SUMS: Record<string, [number, number, number, number, number, number, number, number]> = {
  tool_use: [15, 11303, 677, 31, 11980, 798.7, 2.07, 0.005604],
  structured_output: [15, 9777, 798, 30, 10575, 705.0, 2.0, 0.005188],
  rag: [15, 12517, 877, 33, 13394, 892.9, 2.2, 0.00641],
  resilience: [8, 5308, 285, 16, 5593, 699.1, 2.0, 0.002579],
  multi_agent: [10, 6813, 862, 20, 7675, 767.5, 2.0, 0.004104],
  human_in_the_loop: [12, 21355, 1302, 42, 22657, 1888.1, 3.5, 0.010625],
  durable_state: [8, 28393, 1210, 40, 29603, 3700.4, 5.0, 0.013293],
};

function parsePerItem(text: string): Map<string, [number, number, number]> {
  return new Map(
    text.split("; ").map((entry) => {
      const [id, nums] = entry.split(" ") as [string, string];
      return [id, nums.split("/").map(Number) as [number, number, number]];
    }),
  );
}

describeWithReference("golden numbers: vanilla on the reference arenas", () => {
  it("reproduces every per-item figure, every sum and the scorecard values on all seven arenas", async () => {
    const arenas = Object.keys(SUMS);
    const { records } = await quickRun({
      arenaDirs: arenas.map((a) => path.join(REFERENCE_ARENAS, a)),
      adapters: [adapterEntry("vanilla")],
      corpusPath: REFERENCE_CORPUS,
    });
    for (const record of records) {
      const adapterRecord = record.frameworks[0]!;
      expect(adapterRecord.available, `${record.arena}: ${adapterRecord.reason}`).toBe(true);
      const got = new Map(adapterRecord.items.map((i) => [i.item_id, [i.prompt_tokens, i.completion_tokens, i.llm_calls]]));
      expect(Object.fromEntries(got), record.arena).toEqual(Object.fromEntries(parsePerItem(PER_ITEM[record.arena]!)));
      const failed = adapterRecord.items.filter((i) => !i.passed).map((i) => `${i.item_id}: ${i.error ?? JSON.stringify(i.checks.filter((c) => !c.ok))}`);
      expect(failed, record.arena).toEqual([]);
      const [n, prompt, completion, calls, total, meanTokens, meanCalls, cost] = SUMS[record.arena]!;
      const sum = (k: "prompt_tokens" | "completion_tokens" | "llm_calls") => adapterRecord.items.reduce((a, i) => a + i[k], 0);
      expect([adapterRecord.items.length, sum("prompt_tokens"), sum("completion_tokens"), sum("llm_calls")], record.arena).toEqual([
        n,
        prompt,
        completion,
        calls,
      ]);
      const row = scorecardRows(record)[0]!;
      expect(row.available && [row.total_tokens, row.mean_tokens, row.mean_llm_calls, row.est_cost_usd], record.arena).toEqual([
        total,
        meanTokens,
        meanCalls,
        cost,
      ]);
    }
  }, 120_000);

  it("the pipeline variant reproduces the multi_agent pipeline figures", async () => {
    const { records } = await quickRun({
      arenaDirs: [path.join(REFERENCE_ARENAS, "multi_agent")],
      adapters: [adapterEntry("vanilla-multi")],
      corpusPath: REFERENCE_CORPUS,
    });
    const adapterRecord = records[0]!.frameworks[0]!;
    expect(adapterRecord.items.every((i) => i.passed)).toBe(true);
    const got = new Map(adapterRecord.items.map((i) => [i.item_id, [i.prompt_tokens, i.completion_tokens, i.llm_calls]]));
    expect(Object.fromEntries(got)).toEqual(Object.fromEntries(parsePerItem(PIPELINE)));
    const row = scorecardRows(records[0]!)[0]!;
    expect(row.available && [row.total_tokens, row.mean_tokens, row.mean_llm_calls, row.est_cost_usd]).toEqual([
      19033, 1903.3, 4.0, 0.009989,
    ]);
  }, 60_000);
});
