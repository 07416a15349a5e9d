import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePyJson, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { dispatch, loadCorpus, type Corpus, type ToolEnv } from "../../contract/tools/index.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";

const CORPUS: Corpus = [
  { title: "Mount Everest", text: "The highest mountain, 8849 metres." },
  { title: "Eiffel Tower", text: "A tower in Paris, 330 metres tall." },
];
const env: ToolEnv = { corpus: CORPUS };

describe("dispatch steps (tools.md §3)", () => {
  it("1: parses string arguments as Python JSON; an empty string is {}", () => {
    expect(dispatch("calculator", '{"expr": "6 * 7"}', env)).toBe("42");
    expect(dispatch("calculator", "", env)).toBe("ERROR: could not evaluate '' (invalid syntax (<unknown>, line 0))");
    expect(dispatch("calculator", '{"expr": 17 * 23 + 4', env)).toBe(
      "ERROR: tool arguments for 'calculator' were not valid JSON",
    );
    expect(dispatch("teleport", "{bad", env)).toBe("ERROR: tool arguments for 'teleport' were not valid JSON");
    expect(dispatch("it's", "{bad", env)).toBe(`ERROR: tool arguments for "it's" were not valid JSON`);
    expect(dispatch("calculator", "[".repeat(100_000), env)).toBe(
      "ERROR: tool arguments for 'calculator' were not valid JSON",
    );
  });

  it("2: treats anything that is not an object as {}", () => {
    const empty = "ERROR: could not evaluate '' (invalid syntax (<unknown>, line 0))";
    expect(dispatch("calculator", "null", env)).toBe(empty);
    expect(dispatch("calculator", "[1,2]", env)).toBe(empty);
    expect(dispatch("calculator", '"1+1"', env)).toBe(empty);
    expect(dispatch("calculator", null, env)).toBe(empty);
    expect(dispatch("calculator", ["1+1"], env)).toBe(empty);
    expect(dispatch("calculator", 5, env)).toBe(empty);
    expect(dispatch("calculator", undefined, env)).toBe(empty);
  });

  it("3: reports an unknown tool with Python repr of its name", () => {
    expect(dispatch("teleport", { destination: "mars" }, env)).toBe("ERROR: unknown tool 'teleport'");
    expect(dispatch("it's", {}, env)).toBe(`ERROR: unknown tool "it's"`);
    expect(dispatch("final_answer", {}, env)).toBe("ERROR: unknown tool 'final_answer'");
  });

  it("4: turns a raised exception into ERROR: tool '<name>' raised <message>", () => {
    expect(dispatch("search", { query: "x", k: "x" }, env)).toBe(
      "ERROR: tool 'search' raised invalid literal for int() with base 10: 'x'",
    );
    expect(dispatch("search", '{"query": "x", "k": null}', env)).toBe(
      "ERROR: tool 'search' raised int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
    );
    expect(dispatch("calculator", { expr: "1e999" }, env)).toBe(
      "ERROR: tool 'calculator' raised cannot convert float infinity to integer",
    );
    expect(dispatch("search_rooms", '{"capacity": NaN, "day": "x"}', env)).toBe(
      "ERROR: tool 'search_rooms' raised cannot convert float NaN to integer",
    );
    expect(dispatch("search_rooms", { capacity: [1], day: "x" }, env)).toBe(
      "ERROR: tool 'search_rooms' raised int() argument must be a string, a bytes-like object or a real number, not 'list'",
    );
  });

  it("ignores extra arguments", () => {
    expect(dispatch("calculator", { expr: "1644 - 1368", rounding: "banker" }, env)).toBe("276");
  });

  it("accepts JSON text, a PyDict or a plain object", () => {
    const dict: PyDict = new Map<string, PyValue>([["query", 3.0]]);
    expect(dispatch("search", dict, env)).toBe(dispatch("search", '{"query": 3.0}', env));
    expect(dispatch("calculator", new Map([["expr", "2**10"]]), env)).toBe("1024");
    expect(dispatch("calculator", { expr: "2**10" }, env)).toBe("1024");
  });
});

describe("argument coercion (tools.md §3)", () => {
  it("search: str(query) and int(k) with dict.get semantics", () => {
    const everest = "[Mount Everest] The highest mountain, 8849 metres.";
    expect(dispatch("search", { query: "everest" }, env)).toBe(everest);
    expect(dispatch("search", '{"query": null}', env)).toBe("No results."); // str(None) = "None"
    expect(dispatch("search", '{"query": "tower", "k": " 0 "}', env)).toBe("No results.");
    expect(dispatch("search", '{"query": "metres", "k": 1.9}', env)).toBe(everest);
    expect(dispatch("search", '{"query": "metres", "k": true}', env)).toBe(everest);
    expect(dispatch("search", '{"query": "metres", "k": -1}', env)).toBe(everest);
    expect(dispatch("search", '{"query": "8849"}', env)).toBe(everest);
    expect(dispatch("search", '{"query": 8849}', env)).toBe(everest);
    expect(dispatch("search", "{}", env)).toBe("No results.");
  });

  it("calculator: str(expr), so a number or null is evaluated as its text", () => {
    expect(dispatch("calculator", '{"expr": 42}', env)).toBe("42");
    expect(dispatch("calculator", '{"expr": 2.5}', env)).toBe("2.5");
    expect(dispatch("calculator", '{"expr": null}', env)).toBe(
      "ERROR: could not evaluate 'None' (unsupported constant: None)",
    );
    expect(dispatch("calculator", '{"expr": true}', env)).toBe("1");
    expect(dispatch("calculator", '{"expr": [1, 2]}', env)).toBe("ERROR: could not evaluate '[1, 2]' (unsupported expression)");
  });

  it("search_rooms: int(capacity or 0), str(day)", () => {
    const all = "[R1] Aspen - seats 4\n[R2] Birch - seats 6\n[R3] Cedar - seats 10\n[R4] Draco - seats 12\n[R5] Elm - seats 20";
    expect(dispatch("search_rooms", "{}", env)).toBe(all);
    for (const falsy of ["null", "0", "0.0", "-0.0", '""', "false", "[]", "{}"]) {
      expect(dispatch("search_rooms", `{"capacity": ${falsy}, "day": ""}`, env)).toBe(all);
    }
    expect(dispatch("search_rooms", '{"capacity": "12", "day": "Tuesday"}', env)).toBe("[R4] Draco - seats 12");
    expect(dispatch("search_rooms", '{"capacity": 12.7, "day": null}', env)).toBe(
      "[R4] Draco - seats 12\n[R5] Elm - seats 20",
    );
    expect(dispatch("search_rooms", '{"capacity": 50, "day": "Monday "}', env)).toBe("No rooms seat 50 on Monday .");
    expect(dispatch("search_rooms", '{"capacity": "lots", "day": "x"}', env)).toBe(
      "ERROR: tool 'search_rooms' raised invalid literal for int() with base 10: 'lots'",
    );
  });

  it("book_room: str(room_id)", () => {
    expect(dispatch("book_room", '{"room_id": " r2 "}', env)).toBe("Booked Birch (R2), seats 6.");
    expect(dispatch("book_room", '{"room_id": "r9"}', env)).toBe("ERROR: no room 'r9'");
    expect(dispatch("book_room", '{"room_id": 3}', env)).toBe("ERROR: no room '3'");
    expect(dispatch("book_room", '{"room_id": null}', env)).toBe("ERROR: no room 'None'");
    expect(dispatch("book_room", "{}", env)).toBe("ERROR: no room ''");
  });

  it("suspend tools expose an adapter that did not intercept them (tools.md §7)", () => {
    expect(dispatch("request_approval", '{"summary": "book R3 on Tuesday"}', env)).toBe(
      "NOT APPROVED - the agent did not pause for a decision on: book R3 on Tuesday",
    );
    expect(dispatch("save_progress", '{"note": "found 8849"}', env)).toBe(
      "NOT CHECKPOINTED - the adapter did not suspend at: found 8849",
    );
    expect(dispatch("request_approval", "{}", env)).toBe("NOT APPROVED - the agent did not pause for a decision on: ");
    expect(dispatch("save_progress", '{"note": 1.0}', env)).toBe("NOT CHECKPOINTED - the adapter did not suspend at: 1.0");
  });

  it("boundary_action has no fixture outside its own arena (tools.md §9)", () => {
    expect(dispatch("boundary_action", '{"action": "x"}', env)).toBe("ERROR: boundary fixture is not configured");
    const seen: string[] = [];
    const withFixture: ToolEnv = { corpus: CORPUS, boundary: (action) => (seen.push(action), `{"action": "${action}"}`) };
    expect(dispatch("boundary_action", '{"action": 7}', withFixture)).toBe('{"action": "7"}');
    expect(seen).toEqual(["7"]);
  });
});

describeWithReference("golden resilience tool results (golden.md §2)", () => {
  const EXPECTED: Record<string, string> = {
    "res-01": "ERROR: tool arguments for 'calculator' were not valid JSON",
    "res-02": "ERROR: unknown tool 'teleport'",
    "res-03": "ERROR: could not evaluate 'two ** ten' (unsupported expression)",
    "res-04": "ERROR: could not evaluate '' (invalid syntax (<unknown>, line 0))",
    "res-05": "276",
    "res-06": "No results.",
    "res-07": `ERROR: could not evaluate "__import__('os').system('echo hi')" (unsupported expression)`,
    "res-08": "ERROR: could not evaluate '' (invalid syntax (<unknown>, line 0))",
  };
  const arena = path.join(REFERENCE_ARENAS, "resilience");
  const script = parsePyJson(readFileSync(path.join(arena, "mock_script.json"), "utf8")) as PyDict;
  const scenarios = script.get("scenarios") as PyDict[];
  const items = readFileSync(path.join(arena, "dataset.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => parsePyJson(line) as PyDict);
  const goldenEnv: ToolEnv = { corpus: loadCorpus(REFERENCE_CORPUS) };

  it.each(Object.entries(EXPECTED))("%s", (id, expected) => {
    const item = items.find((i) => i.get("id") === id)!;
    const input = item.get("input") as string;
    const scenario = scenarios.find((s) => input.includes(s.get("match") as string))!;
    const firstTurn = (scenario.get("turns") as PyDict[])[0]!;
    const call = (firstTurn.get("tool_calls") as PyDict[])[0]!;
    expect(dispatch(call.get("name") as string, call.get("arguments"), goldenEnv)).toBe(expected);
  });
});
