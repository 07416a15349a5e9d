/** The `calculator` tool (shared spec, tools.md §4): Python float arithmetic, in `@agentic-arena/py-semantics`. */
import { pyStr } from "@agentic-arena/py-semantics";
import { calculator } from "@agentic-arena/py-semantics/calculator";
import { defineTool } from "./define.ts";

export const calculatorTool = defineTool({
  name: "calculator",
  description: "Evaluate a basic arithmetic expression, e.g. '330 / 0.3048'.",
  parameters: {
    expr: { type: "string", description: "Arithmetic expression.", required: true },
  },
  run: ({ expr }) => calculator(pyStr(expr)),
});
