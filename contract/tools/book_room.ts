/** The `book_room` tool (shared spec, tools.md §6): books a room of the fixed table by id, keeping no state. */
import { pyStr, pyStrip, reprString } from "@agentic-arena/py-semantics";
import { defineTool } from "./define.ts";
import { ROOMS } from "./rooms.ts";

export function bookRoom(roomId: string): string {
  const key = pyStrip(roomId).toUpperCase();
  const room = ROOMS.find((r) => r.id === key);
  if (!room) return `ERROR: no room ${reprString(roomId)}`;
  return `Booked ${room.name} (${room.id}), seats ${room.capacity}.`;
}

export const bookRoomTool = defineTool({
  name: "book_room",
  description: "Book a meeting room by id. Only call this after approval.",
  parameters: {
    room_id: { type: "string", description: "Room id, e.g. 'R3'.", required: true },
  },
  run: ({ room_id }) => bookRoom(pyStr(room_id)),
});
