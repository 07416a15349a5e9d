/** Reading a gateway's records from another process (the orchestrator's side of the endpoint). */
import { parsePyJson } from "@agentic-arena/py-semantics";
import type { GatewayRecords } from "./recorder.ts";
import { recordsFromWire } from "./records-wire.ts";

/** `GET <recordsUrl>[?tag=…]`; bodies come back as PyValues exactly as the gateway parsed them. */
export async function fetchRecords(recordsUrl: string, tag?: string): Promise<GatewayRecords> {
  const url = tag === undefined ? recordsUrl : `${recordsUrl}?tag=${encodeURIComponent(tag)}`;
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`gateway records: HTTP ${res.status}: ${text}`);
  return recordsFromWire(parsePyJson(text));
}
