import { describe, expect, it } from "vitest";
import { bookRoom, searchRooms } from "../../contract/tools/index.ts";

describe("search_rooms (tools.md §6)", () => {
  it("lists rooms that seat enough people and are free, in table order", () => {
    expect(searchRooms(8, "tuesday")).toBe("[R3] Cedar - seats 10\n[R4] Draco - seats 12");
    expect(searchRooms(0, "monday")).toBe(
      "[R2] Birch - seats 6\n[R3] Cedar - seats 10\n[R4] Draco - seats 12\n[R5] Elm - seats 20",
    );
    expect(searchRooms(20, "friday")).toBe("[R5] Elm - seats 20");
  });

  it("strips and lower-cases the day, but matches it exactly", () => {
    expect(searchRooms(15, "  Thursday\n")).toBe("No rooms seat 15 on   Thursday\n.");
    expect(searchRooms(4, "\u00a0MONDAY\u2003")).toBe(searchRooms(4, "monday"));
    expect(searchRooms(4, "mon")).toBe(searchRooms(4, ""));
  });

  it("clamps a negative capacity to 0 and echoes the original day", () => {
    expect(searchRooms(-5, "someday").split("\n")).toHaveLength(5);
    expect(searchRooms(50, "Monday ")).toBe("No rooms seat 50 on Monday .");
    expect(searchRooms(-5n, "x")).toBe(searchRooms(0n, "x"));
    expect(searchRooms(10n ** 40n, "x")).toBe(`No rooms seat ${10n ** 40n} on x.`);
  });
});

describe("book_room (tools.md §6)", () => {
  it("books by id, stripped and upper-cased", () => {
    expect(bookRoom("R1")).toBe("Booked Aspen (R1), seats 4.");
    expect(bookRoom(" r3 ")).toBe("Booked Cedar (R3), seats 10.");
    expect(bookRoom("r5")).toBe("Booked Elm (R5), seats 20.");
  });

  it("reports an unknown id with Python repr of the original value", () => {
    expect(bookRoom("r9")).toBe("ERROR: no room 'r9'");
    expect(bookRoom(" R9 ")).toBe("ERROR: no room ' R9 '");
    expect(bookRoom("it's")).toBe(`ERROR: no room "it's"`);
    expect(bookRoom("")).toBe("ERROR: no room ''");
  });
});
