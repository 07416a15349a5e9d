/**
 * The fixed meeting-room table of the human-in-the-loop arena (shared spec, tools.md §6), read by
 * `search_rooms` and `book_room`. Booking keeps no state: whether it happened is read from the
 * harness's own tool-call log.
 */
export interface Room {
  readonly id: string;
  readonly name: string;
  readonly capacity: number;
  readonly taken: readonly string[];
}

export const ROOMS: readonly Room[] = [
  { id: "R1", name: "Aspen", capacity: 4, taken: ["monday"] },
  { id: "R2", name: "Birch", capacity: 6, taken: ["wednesday"] },
  { id: "R3", name: "Cedar", capacity: 10, taken: ["friday"] },
  { id: "R4", name: "Draco", capacity: 12, taken: [] },
  { id: "R5", name: "Elm", capacity: 20, taken: ["tuesday", "thursday"] },
];
