/**
 * §13 Durable across a real restart: leg 2 runs in a fresh process that shares nothing with leg 1
 * but the JSON resume_state and the item's checkpoint directory, and must resume (leg tools
 * [search, search] then [calculator]) and answer — on the reference dur-01 (498) and on our dur-01
 * and dur-10. The probe is the registry's (orchestrator/probes/durable-probes.ts). State bytes and
 * the files each adapter leaves in its checkpoint folders go to runs/findings/durable.json.
 */
import { afterAll } from "vitest";
import { WITHOUT_RESUME } from "../../orchestrator/probes/declarations.ts";
import { durable } from "../../orchestrator/probes/durable-probes.ts";
import { catalogueSubjects } from "../../orchestrator/probes/registry.ts";
import { writeFindings } from "./findings-file.ts";
import { durableFinding, type DurableFinding } from "./findings/durable.ts";
import { describeProbe } from "./registry-suite.ts";

const findings: DurableFinding[] = [];
/** Every resumable adapter on each of its cases. */
const expectedRows = () => catalogueSubjects().filter((s) => !WITHOUT_RESUME.has(s.name)).reduce((n, s) => n + durable.setup(s).length, 0);

afterAll(() => {
  if (findings.length === 0) return;
  findings.sort((a, b) => a.adapter.localeCompare(b.adapter) || a.case.localeCompare(b.case));
  writeFindings("durable", "orchestrator/probes/durable-probes.ts", {
    note: "Not gated: resume_state bytes (leg 1, min–max over items) and the files each adapter left in its harness-owned checkpoint folders (one per item × repeat).",
    // False when the file ran filtered, the reference was absent, or a run did not finish.
    complete: findings.length === expectedRows(),
    rows: findings,
  });
});

describeProbe("durable", {
  fixtures: ["cheater", "restarter"],
  observe: (subject, result) => {
    const run = result.runs[0];
    if (result.status !== "n/a" && run?.record.available) findings.push(durableFinding(subject.name, result.case, run, result.violations));
  },
});
