/** The `search_rooms` tool (shared spec, tools.md §6): free rooms of the fixed table that seat enough people. */
import { pyInt, pyStr, pyStrip, pyTruthy } from "@agentic-arena/py-semantics";
import { defineTool } from "./define.ts";
import { ROOMS } from "./rooms.ts";

/** `capacity` is a Python int (already coerced by the body), so it may exceed any JS number. */
export function searchRooms(capacity: bigint | number, day: string): string {
  const asked = BigInt(capacity);
  const want = asked > 0n ? asked : 0n;
  const when = pyStrip(day).toLowerCase();
  const hits = ROOMS.filter((room) => BigInt(room.capacity) >= want && !room.taken.includes(when));
  if (hits.length === 0) return `No rooms seat ${want} on ${day}.`;
  return hits.map((room) => `[${room.id}] ${room.name} - seats ${room.capacity}`).join("\n");
}

export const searchRoomsTool = defineTool({
  name: "search_rooms",
  description: "List meeting rooms that seat at least `capacity` and are free on `day`.",
  parameters: {
    capacity: { type: "integer", description: "People to seat.", required: true },
    day: { type: "string", description: "Day of the week, e.g. 'tuesday'.", required: true },
  },
  // `int(args.get("capacity", 0) or 0)`: absent, null, 0, "" and false all mean 0.
  run: ({ capacity, day }) => searchRooms(pyInt(pyTruthy(capacity) ? capacity : 0n), pyStr(day)),
});
