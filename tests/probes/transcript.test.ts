/**
 * §6 The whole transcript is replayed: the last request of the round-trip run holds the item
 * input as a user message, the assistant turn carrying the tool call, and the tool result; and
 * every request's first user message is the item input (the gateway matches scenarios on it).
 */
import { describeProbe } from "./registry-suite.ts";

describeProbe("transcript", { fixtures: ["delta-only", "no-assistant"] });
