/** dataset.jsonl rules of the validator (arena-format.md §3, §7). */
import { isBlank, pyRepr, pyStr, pyTypeName, type PyValue } from "@agentic-arena/py-semantics";
import { datasetLineOf, datasetLines, itemLabel } from "./dataset.ts";
import { unsafeIdProblem } from "./ids.ts";
import type { FileFindings } from "./findings.ts";
import { readArenaText } from "./text.ts";
import { pyTruthy } from "@agentic-arena/py-semantics";
import { checkFindings } from "./validate-checks.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../gateway/options.ts";

/** What the drift check needs to know about an item that parsed as an object. */
export interface ItemFacts {
  readonly label: string;
  readonly line: number;
  readonly input: string;
  /** The checks list when it is one (entries may still be malformed). */
  readonly checks: readonly PyValue[];
}

const DECISIONS = ["", "approve", "deny"];

/**
 * Room a request needs besides the item's input: the system prompt, the tool specs and a
 * framework's framing. An input that leaves less than this of the gateway's body limit would pass
 * here and then be an `infra` error on the first request (a 413), on every adapter.
 */
export const REQUEST_HEADROOM_BYTES = 64 * 1024;
export const MAX_INPUT_BYTES = DEFAULT_MAX_BODY_BYTES - REQUEST_HEADROOM_BYTES;

/** The input as it travels: a JSON string in the request body (escapes included). */
const wireBytes = (input: string) => Buffer.byteLength(JSON.stringify(input), "utf8");

export function validateDataset(file: string, findings: FileFindings): ItemFacts[] {
  const read = readArenaText(file, datasetLineOf);
  if (read.kind === "missing") {
    findings.error(1, "missing dataset.jsonl");
    return [];
  }
  if (read.kind === "invalid") {
    findings.error(read.line, read.reason);
    return [];
  }
  const entries = datasetLines(read.text);
  const facts: ItemFacts[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const { line } = entry;
    if (entry.error) {
      findings.error(line, `invalid JSON (${entry.error.reason})`);
      continue;
    }
    const raw = entry.value;
    if (!(raw instanceof Map)) {
      findings.error(line, `expected a JSON object, got ${pyTypeName(raw)}`);
      continue;
    }
    const id = raw.get("id");
    const label = itemLabel(id, line);
    if (!pyTruthy(id)) findings.error(line, "missing 'id'");
    else {
      const unsafe = unsafeIdProblem(label);
      if (unsafe) findings.error(line, unsafe);
      if (seen.has(label)) findings.error(line, `duplicate id ${pyRepr(label)}`);
      else seen.add(label);
    }

    const input = raw.has("input") ? pyStr(raw.get("input")!) : "";
    if (isBlank(input)) findings.error(line, `${label}: empty 'input'`);
    else if (wireBytes(input) > MAX_INPUT_BYTES) {
      findings.error(
        line,
        `${label}: 'input' is ${wireBytes(input)} bytes as JSON, over the ${MAX_INPUT_BYTES} the gateway's ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MiB request limit leaves for it`,
      );
    }

    const checks = raw.get("checks");
    let checkList: readonly PyValue[] = [];
    if (!pyTruthy(checks)) findings.error(line, `${label}: has no checks (it can never fail)`);
    else if (!Array.isArray(checks)) findings.error(line, `${label}: 'checks' must be a list, got ${pyTypeName(checks!)}`);
    else {
      checkList = checks;
      checks.forEach((c, i) => {
        const found = checkFindings(c, `${label}.checks[${i}]`);
        for (const text of found.errors) findings.error(line, text);
        for (const text of found.warnings) findings.warn(line, text);
      });
    }

    if (raw.has("resume_with")) {
      const decision = pyStr(raw.get("resume_with")!);
      if (!DECISIONS.includes(decision)) {
        findings.warn(line, `${label}: resume_with ${pyRepr(decision)} is neither 'approve' nor 'deny' (the harness injects it verbatim)`);
      }
    }
    facts.push({ label, line, input, checks: checkList });
  }
  if (entries.length === 0) findings.error(1, "dataset.jsonl has no items");
  return facts;
}
