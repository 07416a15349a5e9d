/**
 * How a named setup's runs are obtained. Most setups are one orchestrator run of their own; a
 * group of setups can share one run (several arenas in one orchestrator run, one scorer); and the
 * timing runs of §11 run alone, after a warm-up, taken again when a reading is off. A runner
 * (execute.ts) memoises by group and subject, so a run is paid once however many probes read it.
 */
import { PROBE_SEED } from "./canary.ts";
import { dataPlan } from "./data-setups.ts";
import { single, type SetupPlan } from "./plan.ts";
import { setupOptions, type SetupName } from "./setups.ts";
import { transportPlan } from "./transport-setups.ts";

/**
 * The plan of any setup the registry knows, its values drawn with `seed` (default: this process's;
 * tests/witness/indistinguishable.test.ts draws with others to show nothing in them is fixed).
 */
export function planOf(name: SetupName, seed: string = PROBE_SEED): SetupPlan {
  return dataPlan(name) ?? transportPlan(name, seed) ?? single(name, setupOptions(name, seed));
}
