/**
 * The served-wire probe: every adapter's whole tool_use run (multi_agent for a pipeline) has no
 * violation of the served-wire rules, and each fixture that cheats only after its first requests
 * is caught by the rule named for it.
 */
import { describeProbe } from "./registry-suite.ts";

describeProbe("served-wire", { fixtures: ["answer-rebuilder", "history-trimmer", "arg-launderer", "coached", "tool-leak", "dash-params", "whisperer", "handoff-stuffer"] });
