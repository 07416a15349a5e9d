/**
 * The fixed meeting-room table of the human-in-the-loop arena (shared spec, tools.md §6). Booking
 * keeps no state: whether it happened is read from the harness's own tool-call log.
 */
import { pyStrip, reprString } from "@agentic-arena/py-semantics";

interface Room {
  readonly id: string;
  readonly name: string;
  readonly capacity: number;
  readonly taken: readonly string[];
}

const ROOMS: readonly Room[] = [
  { id: "R1", name: "Aspen", capacity: 4, taken: ["monday"] },
  { id: "R2", name: "Birch", capacity: 6, taken: ["wednesday"] },
  { id: "R3", name: "Cedar", capacity: 10, taken: ["friday"] },
  { id: "R4", name: "Draco", capacity: 12, taken: [] },
  { id: "R5", name: "Elm", capacity: 20, taken: ["tuesday", "thursday"] },
];

/** `capacity` is a Python int (already coerced by dispatch), so it may exceed any JS number. */
export function searchRooms(capacity: bigint | number, day: string): string {
  const asked = BigInt(capacity);
  const want = asked > 0n ? asked : 0n;
  const when = pyStrip(day).toLowerCase();
  const hits = ROOMS.filter((room) => BigInt(room.capacity) >= want && !room.taken.includes(when));
  if (hits.length === 0) return `No rooms seat ${want} on ${day}.`;
  return hits.map((room) => `[${room.id}] ${room.name} - seats ${room.capacity}`).join("\n");
}

export function bookRoom(roomId: string): string {
  const key = pyStrip(roomId).toUpperCase();
  const room = ROOMS.find((r) => r.id === key);
  if (!room) return `ERROR: no room ${reprString(roomId)}`;
  return `Booked ${room.name} (${room.id}), seats ${room.capacity}.`;
}
