/** Checks on the answer text (arena-format.md §5: contains … numeric_equals, sentence_count). */
import { floatRepr, pyStr, reprString } from "@agentic-arena/py-semantics";
import { field, FieldError, floatField, intField } from "../fields.ts";
import { extractNumbers } from "../numbers.ts";
import { pySearch, PyRegexError } from "@agentic-arena/py-semantics/regex";
import { countSentences } from "../sentences.ts";
import type { CheckFn } from "../types.ts";

export const contains: CheckFn = (check, { outputText }) => {
  const v = pyStr(field(check, "value"));
  return { ok: outputText.includes(v), detail: `expected substring ${reprString(v)}` };
};

export const icontains: CheckFn = (check, { outputText }) => {
  const v = pyStr(field(check, "value")).toLowerCase();
  return { ok: outputText.toLowerCase().includes(v), detail: `expected substring (ci) ${reprString(v)}` };
};

export const notContains: CheckFn = (check, { outputText }) => {
  const v = pyStr(field(check, "value"));
  return { ok: !outputText.includes(v), detail: `expected ${reprString(v)} to be absent` };
};

export const iregex: CheckFn = (check, { outputText }) => {
  const pattern = pyStr(field(check, "value"));
  try {
    return { ok: pySearch(pattern, outputText), detail: `expected regex /${pattern}/i` };
  } catch (e) {
    if (e instanceof PyRegexError) throw new FieldError(`invalid regex /${pattern}/i (${e.message})`);
    throw e;
  }
};

export const numericEquals: CheckFn = (check, { outputText }) => {
  const value = floatField(check, "value");
  const tol = floatField(check, "tol", 0);
  return {
    ok: extractNumbers(outputText).some((n) => Math.abs(n - value) <= tol),
    detail: `expected a number within ${floatRepr(tol)} of ${floatRepr(value)}`,
  };
};

export const sentenceCount: CheckFn = (check, { outputText }) => {
  const min = intField(check, "min", 1n);
  const max = intField(check, "max", 10000n);
  const n = BigInt(countSentences(outputText));
  return { ok: min <= n && n <= max, detail: `expected between ${min} and ${max} sentences, got ${n}` };
};
