/**
 * §1 The arena prompt reaches the model: the sentinel sentence is in the message text of every
 * served request (every stage of a pipeline). Mock mode replays correct turns whatever the prompt
 * said, so a hard-coded prompt is visible only here. The probe is the registry's
 * (orchestrator/probes/contract-probes.ts); its SENTINEL setup is in orchestrator/probes/setups.ts.
 */
import { describeProbe } from "./registry-suite.ts";

describeProbe("prompt", { fixtures: ["hardcoded-prompt"] });
