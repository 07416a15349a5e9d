/**
 * Run ids name run folders: millisecond UTC time (so names sort by start) plus a random suffix (so
 * two runs started in the same millisecond, on two machines sharing a disk, never collide).
 */
import { randomBytes } from "node:crypto";

export const RUN_ID = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:.]/g, "");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

export function isRunId(name: string): boolean {
  return RUN_ID.test(name);
}
