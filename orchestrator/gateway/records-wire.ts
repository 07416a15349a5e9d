/**
 * The records endpoint's document (README "Records endpoint"): the recorder snapshot as Python-format
 * JSON. Bodies and messages are PyValues, so the whole document is written with Python json.dumps and
 * must be read back with parsePyJson: JSON.parse would lose the int/float distinction and key order.
 */
import { toJs, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { PROVIDER_FAULTS, type AttemptOutcome, type GatewayRecords, type ProviderFault } from "./record-types.ts";

export function recordsToWire(r: GatewayRecords): PyDict {
  const int = (n: number): bigint => BigInt(n);
  const time = (n: number | null): PyValue => n;
  const tagged = (x: { attempt: number; tag: string }): [string, PyValue][] => [
    ["attempt", int(x.attempt)],
    ["tag", x.tag],
  ];
  return new Map<string, PyValue>([
    ["requests", r.requests.map((x) => new Map<string, PyValue>([...tagged(x), ["body", x.body]]))],
    [
      "attempts",
      r.attempts.map(
        (a) =>
          new Map<string, PyValue>([
            ...tagged(a),
            ["at", time(a.at)],
            ["startedAt", time(a.startedAt)],
            ["status", a.status === null ? null : int(a.status)],
            ["outcome", a.outcome],
            ["closedAt", time(a.closedAt)],
            ["endedAt", time(a.endedAt)],
            ["providerFault", a.providerFault],
          ]),
      ),
    ],
    [
      "served",
      r.served.map(
        (s) =>
          new Map<string, PyValue>([
            ...tagged(s),
            ["prompt_tokens", int(s.prompt_tokens)],
            ["completion_tokens", int(s.completion_tokens)],
          ]),
      ),
    ],
    [
      "servedUsage",
      new Map<string, PyValue>([
        ["prompt_tokens", int(r.servedUsage.prompt_tokens)],
        ["completion_tokens", int(r.servedUsage.completion_tokens)],
        ["llm_calls", int(r.servedUsage.llm_calls)],
      ]),
    ],
    ["responseMessages", r.responseMessages.map((m) => new Map<string, PyValue>([...tagged(m), ["message", m.message]]))],
  ]);
}

function field(d: PyValue | undefined, key: string): PyValue | undefined {
  return d instanceof Map ? d.get(key) : undefined;
}
function num(v: PyValue | undefined): number {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return v;
  throw new TypeError(`records: expected a number, got ${typeof v}`);
}
function numOrNull(v: PyValue | undefined): number | null {
  return v === null || v === undefined ? null : num(v);
}
function faultOf(v: PyValue | undefined): ProviderFault | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" && (PROVIDER_FAULTS as readonly string[]).includes(v)) return v as ProviderFault;
  throw new TypeError("records: expected a provider fault or null");
}
function str(v: PyValue | undefined): string {
  if (typeof v !== "string") throw new TypeError("records: expected a string");
  return v;
}
function dict(v: PyValue | undefined): PyDict {
  if (!(v instanceof Map)) throw new TypeError("records: expected an object");
  return v;
}
function list(v: PyValue | undefined): readonly PyValue[] {
  if (!Array.isArray(v)) throw new TypeError("records: expected a list");
  return v;
}

export function recordsFromWire(v: PyValue): GatewayRecords {
  const tagged = (x: PyValue): { attempt: number; tag: string } => ({ attempt: num(field(x, "attempt")), tag: str(field(x, "tag")) });
  const usage = field(v, "servedUsage");
  return {
    requests: list(field(v, "requests")).map((x) => {
      const body = dict(field(x, "body"));
      // Already parsed off the wire: its plain view is the same value, converted on each read.
      return { ...tagged(x), body, get plain() { return toJs(body); } };
    }),
    attempts: list(field(v, "attempts")).map((x) => ({
      ...tagged(x),
      at: num(field(x, "at")),
      startedAt: num(field(x, "startedAt")),
      status: numOrNull(field(x, "status")),
      outcome: str(field(x, "outcome")) as AttemptOutcome,
      closedAt: numOrNull(field(x, "closedAt")),
      endedAt: numOrNull(field(x, "endedAt")),
      providerFault: faultOf(field(x, "providerFault")),
    })),
    served: list(field(v, "served")).map((x) => ({
      ...tagged(x),
      prompt_tokens: num(field(x, "prompt_tokens")),
      completion_tokens: num(field(x, "completion_tokens")),
    })),
    servedUsage: {
      prompt_tokens: num(field(usage, "prompt_tokens")),
      completion_tokens: num(field(usage, "completion_tokens")),
      llm_calls: num(field(usage, "llm_calls")),
    },
    responseMessages: list(field(v, "responseMessages")).map((x) => ({ ...tagged(x), message: dict(field(x, "message")) })),
  };
}
