"""`search_rooms` and `book_room` (shared spec tools.md section 6) over the exported room table."""

from __future__ import annotations

from .definitions import ROOMS
from .values import int_text


def search_rooms(capacity: int, day: str) -> str:
    want = max(0, capacity)
    when = day.strip().lower()
    hits = [r for r in ROOMS if r["capacity"] >= want and when not in r["taken"]]
    if not hits:
        return f"No rooms seat {int_text(want)} on {day}."
    return "\n".join(f"[{r['id']}] {r['name']} - seats {r['capacity']}" for r in hits)


def book_room(room_id: str) -> str:
    key = room_id.strip().upper()
    for r in ROOMS:
        if r["id"] == key:
            return f"Booked {r['name']} ({r['id']}), seats {r['capacity']}."
    return f"ERROR: no room {room_id!r}"
