/**
 * §12 The pause is observed by the harness: on human_in_the_loop (ours, and the reference's) every
 * item suspends exactly once, the pause tool is never an executed call, and the approved rooms are
 * booked after the pause; an adapter without resume is reported `unsupported`, exactly as
 * declared. The probe is the registry's (orchestrator/probes/pause-probes.ts).
 */
import { describeProbe } from "./registry-suite.ts";

describeProbe("pause", { fixtures: ["runs-through", "prose-pause", "logs-pause"] });
