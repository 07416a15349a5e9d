/**
 * Generated ids. Their lengths are fixed because they are billed (a tool-call id is part of the
 * completion text and of every later prompt), so only the characters are random.
 */
import { randomBytes, randomFillSync } from "node:crypto";

const POOL = Buffer.allocUnsafe(4096);
let poolAt = POOL.length;

/** `bytes` random bytes as lowercase hex, from a pool so the hot path avoids a syscall per id. */
function randomHex(bytes: number): string {
  if (poolAt + bytes > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const s = POOL.toString("hex", poolAt, poolAt + bytes);
  poolAt += bytes;
  return s;
}

/** `call_` + 8 random lowercase hex digits (gateway.md §6). */
export function toolCallId(): string {
  return `call_${randomHex(4)}`;
}

const MASK_48 = (1n << 48n) - 1n;

/**
 * `chatcmpl-mock-<12 hex>`, unique for the life of one generator: a random 48-bit start plus a
 * counter. LangGraph.js keys AI messages by this id and silently replaces earlier ones when it
 * repeats, so pure randomness (a birthday collision every ~16M responses) is not good enough
 * within a run, while the random start keeps two gateway processes apart.
 */
export function responseIdGenerator(): () => string {
  let next = BigInt(`0x${randomBytes(6).toString("hex")}`);
  return () => {
    const id = `chatcmpl-mock-${next.toString(16).padStart(12, "0")}`;
    next = (next + 1n) & MASK_48;
    return id;
  };
}
