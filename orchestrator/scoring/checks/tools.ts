/** Checks on the tool calls and pauses (arena-format.md §5: tool_used … call_counts). */
import { pyEquals, pyRepr, pyStr, reprString, type PyDict } from "@agentic-arena/py-semantics";
import { dictField, field, intField } from "../fields.ts";
import type { CheckFn } from "../types.ts";

export const toolUsed: CheckFn = (check, { toolNames }) => {
  const name = pyStr(field(check, "name"));
  return { ok: toolNames.includes(name), detail: `expected tool ${reprString(name)} to be called` };
};

export const toolNotUsed: CheckFn = (check, { toolNames }) => {
  const name = pyStr(field(check, "name"));
  return { ok: !toolNames.includes(name), detail: `expected tool ${reprString(name)} never to be called` };
};

export const noTool: CheckFn = (_check, { toolNames }) => ({
  ok: toolNames.length === 0,
  detail: "expected no tool calls",
});

export const minToolCalls: CheckFn = (check, { toolNames }) => {
  const n = intField(check, "value");
  return { ok: BigInt(toolNames.length) >= n, detail: `expected >= ${n} tool calls` };
};

export const maxToolCalls: CheckFn = (check, { toolNames }) => {
  const n = intField(check, "value");
  return { ok: BigInt(toolNames.length) <= n, detail: `expected <= ${n} tool calls` };
};

export const suspended: CheckFn = (check, { suspends }) => {
  const n = intField(check, "value", 1n);
  return {
    ok: BigInt(suspends) >= n,
    detail: `expected the agent to pause for a decision >= ${n} time(s), it paused ${suspends}`,
  };
};

export const noToolBeforeSuspend: CheckFn = (check, { beforeSuspend }) => {
  const name = pyStr(field(check, "name"));
  return {
    ok: !beforeSuspend.includes(name),
    detail: `expected ${reprString(name)} not to be called before pausing; before the pause it called ${pyRepr([...beforeSuspend])}`,
  };
};

/** Only the listed names are compared, each with Python `==` (so a listed `2.0` equals a count of 2). */
export const callCounts: CheckFn = (check, { toolNames }) => {
  const expected = dictField(check, "counts");
  const got: PyDict = new Map();
  for (const name of expected.keys()) {
    got.set(name, BigInt(toolNames.filter((t) => t === name).length));
  }
  return {
    ok: [...expected].every(([name, want]) => pyEquals(got.get(name)!, want)),
    detail: `expected tool call counts ${pyRepr(expected)}, got ${pyRepr(got)}`,
  };
};
