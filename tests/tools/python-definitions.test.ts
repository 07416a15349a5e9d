/**
 * The Python tools' definitions are the TypeScript ones, exported as data: the committed
 * definitions.json is what `node scripts/tool-definitions.ts` writes now, the Python package
 * restates none of its texts, and the specs it derives serialise to the canonical text.
 */
import { execa } from "execa";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CANONICAL_TOOLS, TOOL_NAMES } from "../../contract/tools/canonical.ts";
import { renderToolDefinitions, TOOL_DEFINITIONS_FILE } from "../../contract/tools/export.ts";
import { isControlTool, namesFor, SUSPEND_TOOLS } from "../../contract/tools/registry.ts";
import { toolSpecJson } from "../../contract/tools/specs.ts";
import { REPO_ROOT } from "../support/reference.ts";

const PACKAGE_DIR = path.join(REPO_ROOT, "workers/python/arena_tools");

/** What the Python package says about its definitions, asked of the package itself. */
async function pythonView(): Promise<{ names: string[]; suspend: string[]; specs: Record<string, string>; namesFor: string[][]; control: boolean[] }> {
  const script = [
    "import json",
    "from arena_tools import TOOL_NAMES, SUSPEND_TOOLS, spec, names_for, is_control_tool",
    "declared, control = json.loads(input())",
    "print(json.dumps({'names': list(TOOL_NAMES), 'suspend': list(SUSPEND_TOOLS),",
    "  'specs': {n: json.dumps(spec(n)) for n in TOOL_NAMES},",
    "  'namesFor': [names_for(d) for d in declared],",
    "  'control': [is_control_tool(n, ['writer']) for n in control]}))",
  ].join("\n");
  const run = await execa("python3", ["-c", script], { cwd: path.dirname(PACKAGE_DIR), input: JSON.stringify([DECLARED, CONTROL_NAMES]) });
  return JSON.parse(run.stdout);
}

const DECLARED: (string[] | null)[] = [null, [], ["calculator", "search"], ["book_room", "request_approval", "search_rooms", "book_room"], ["teleport", "save_progress"]];

const CONTROL_NAMES = ["final_answer", "Final_answer", "final_answer ", "transfer_to_writer", "transfer_to_", "transfer_", "writer", "writers", "search", "request_approval", ""];

describe("Python tool definitions", () => {
  it("are the committed output of scripts/tool-definitions.ts (run it when this fails)", () => {
    const committed = readFileSync(path.join(REPO_ROOT, TOOL_DEFINITIONS_FILE), "utf8");
    expect(committed).toBe(renderToolDefinitions());
  });

  it("derive specs whose json.dumps is the canonical text, in registry order, with the same pause tools", async () => {
    const py = await pythonView();
    expect(py.names).toEqual([...TOOL_NAMES]);
    expect(py.suspend).toEqual([...SUSPEND_TOOLS]);
    for (const name of TOOL_NAMES) expect(py.specs[name], name).toBe(toolSpecJson(name));
    expect(py.namesFor).toEqual(DECLARED.map((d) => namesFor(d)));
    expect(py.control).toEqual(CONTROL_NAMES.map((n) => isControlTool(n, ["writer"])));
    expect(py.control.filter(Boolean).length).toBe(4);
  });

  it("are not restated by hand in any Python module", () => {
    const texts = TOOL_NAMES.flatMap((name) => {
      const tool = CANONICAL_TOOLS[name];
      return [tool.description, ...Object.values(tool.parameters).map((p) => p.description), ...(tool.unsupported ? [tool.unsupported] : [])];
    });
    const modules = readdirSync(PACKAGE_DIR).filter((f) => f.endsWith(".py"));
    expect(modules.length).toBeGreaterThan(3);
    const restated = modules.flatMap((file) => {
      const source = readFileSync(path.join(PACKAGE_DIR, file), "utf8");
      return texts.filter((t) => source.includes(t)).map((t) => `${file}: ${t}`);
    });
    expect(restated).toEqual([]);
  });
});
