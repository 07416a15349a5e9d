/**
 * The isolation probe: every adapter's whole tool_use run (multi_agent for a pipeline) writes only
 * its items' folders and TMPDIR and sends only under its own identity during its legs, and each
 * fixture that starts cheating later is caught (tests/sandbox/private-world.test.ts runs the same
 * fixtures in ordinary runs).
 */
import { describeProbe } from "./registry-suite.ts";

describeProbe("isolation", { fixtures: ["tag-forger", "dataset-reader", "item-stasher"] });
