/**
 * `refused-calls-unreported` (contract/declarations.ts): an adapter's tool calls may leave out the
 * served calls its framework refused, and nothing else. The report is matched against the served
 * calls as a subsequence, so a refused call followed by its retry under the same name is judged
 * right whichever of the two a framework reports.
 */
import { describe, expect, it } from "vitest";
import { reportedWithRefusalsLeftOut } from "../../orchestrator/witness/served-rule.ts";

const refused = (name: string) => ({ name, refused: true });
const ran = (name: string) => ({ name, refused: false });

describe("refused calls left out of a report", () => {
  it("a broken call then its retry, same name: the report of the retry alone matches", () => {
    expect(reportedWithRefusalsLeftOut(["calculator"], [refused("calculator"), ran("calculator")])).toBe(true);
  });

  it("a framework that reports the refused call as well still matches", () => {
    expect(reportedWithRefusalsLeftOut(["calculator", "calculator"], [refused("calculator"), ran("calculator")])).toBe(true);
  });

  it("an unknown tool left out matches; a call that ran left out does not", () => {
    expect(reportedWithRefusalsLeftOut(["calculator"], [refused("slide_rule"), ran("calculator")])).toBe(true);
    expect(reportedWithRefusalsLeftOut([], [refused("calculator"), ran("calculator")])).toBe(false);
    expect(reportedWithRefusalsLeftOut(["search"], [ran("search"), ran("calculator")])).toBe(false);
  });

  it("order counts, and nothing may be reported that was not served", () => {
    expect(reportedWithRefusalsLeftOut(["calculator", "search"], [ran("search"), ran("calculator")])).toBe(false);
    expect(reportedWithRefusalsLeftOut(["search", "search"], [ran("search")])).toBe(false);
  });
});
