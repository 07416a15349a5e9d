/**
 * `arena probe`: the fairness probes of the registry (orchestrator/probes/), from the command line.
 *
 * - `--framework NAME…` (default `all`): catalogue adapters; a rule × adapter table.
 * - `--adapter PATH…`: an adapter author's own module (default export an Adapter), the same table.
 * - `--fixtures`: the hostile catalogue; each fixture must be caught by the probe named for it.
 *
 * Exit 1 when a real adapter fails a probe beyond its known findings (or a known finding no
 * longer occurs), or a fixture goes uncaught. The table goes to stdout (deterministic: registry
 * and catalogue order); progress goes to stderr as runs finish.
 */
import { DEFAULT_ARENAS_DIR } from "../../arena/discover.ts";
import { hostileCases, judgeHostile, judgeProbe, runsInFlight, sharedRunner, type ProbeEnv } from "../../probes/execute.ts";
import { renderFixtures, renderMatrix, type MatrixRow } from "../../probes/table.ts";
import { allArenaTools, catalogueSubjects, hostileIndex, moduleSubject, probeById, PROBES, ProbeSelectionError } from "../../probes/registry.ts";
import type { Subject } from "../../probes/setups.ts";
import type { FixtureName, Probe } from "../../probes/types.ts";
import { ARENA_FIXTURES, FIXTURES } from "../../../fixtures/catalogue.ts";
import { ADAPTER_GROUP_NAMES, adapterGroup } from "../../../contract/catalogue.ts";
import { UsageError, type CommandContext, type FlagValue, type Io } from "../command.ts";
import { adapterModuleAt } from "../adapter-path.ts";

const list = (v: FlagValue): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);


function selectProbes(ids: readonly string[]): Probe[] {
  try {
    // Registry order whatever the order given, so the output does not depend on the command line.
    const wanted = new Set(ids.map((id) => probeById(id)));
    return ids.length === 0 ? [...PROBES] : PROBES.filter((p) => wanted.has(p));
  } catch (err) {
    if (err instanceof ProbeSelectionError) throw new UsageError(`--probe: ${err.message}`);
    throw err;
  }
}

function selectSubjects(named: readonly string[], adapters: readonly string[], cwd: string): Subject[] {
  let catalogue: Subject[];
  try {
    catalogue = catalogueSubjects();
  } catch (err) {
    if (err instanceof ProbeSelectionError) throw new UsageError(err.message);
    throw err;
  }
  const names = named.length === 0 && adapters.length === 0 ? ["all"] : named;
  const grouped = new Set(names.flatMap((n) => adapterGroup(n)?.map((e) => e.name) ?? []));
  const unknown = names.filter((n) => !adapterGroup(n) && !catalogue.some((s) => s.name === n));
  if (unknown.length > 0) {
    throw new UsageError(`--framework: no adapter ${unknown.map((n) => JSON.stringify(n)).join(", ")} in the catalogue (known: ${[...catalogue.map((s) => s.name), ...ADAPTER_GROUP_NAMES].join(", ")})`);
  }
  const picked = catalogue.filter((s) => grouped.has(s.name) || names.includes(s.name));
  const own = adapters.map((p) => moduleSubject(adapterModuleAt(p, cwd).module));
  return [...picked, ...own];
}

function environment(io: Io, total: () => number): ProbeEnv {
  let done = 0;
  const runSetup = sharedRunner(runsInFlight(), (setup, subject, run) => {
    done += 1;
    const adapterRecord = run.record;
    const what = adapterRecord.available ? `${run.bodies.length} request(s) served` : `not built (${adapterRecord.unavailable_kind})`;
    // A shared run can answer setups nobody asked for (a warm-up, a group's other lanes).
    io.stderr(`arena probe: run ${done}/${Math.max(done, total())}: ${subject.name} ${setup}, ${what}\n`);
  });
  return { runSetup, arenaTools: allArenaTools([DEFAULT_ARENAS_DIR]) };
}

async function matrix(probes: readonly Probe[], subjects: readonly Subject[], io: Io): Promise<number> {
  const setups = new Set(subjects.flatMap((s) => probes.flatMap((p) => p.setup(s).flatMap((c) => c.setups.map((x) => `${s.name}\u0000${s.module}\u0000${x}`)))));
  const env = environment(io, () => setups.size);
  io.stderr(`arena probe: ${probes.length} probe(s) × ${subjects.length} adapter(s), ${setups.size} setup run(s)\n`);
  const rows: MatrixRow[] = await Promise.all(
    probes.map(async (probe) => ({ probe, cells: await Promise.all(subjects.map((s) => judgeProbe(probe, s, env))) })),
  );
  const { text, failed } = renderMatrix(rows, subjects);
  io.stdout(text);
  return failed ? 1 : 0;
}

async function fixtures(probes: readonly Probe[], filtered: boolean, io: Io): Promise<number> {
  const cases = probes.flatMap((probe) => probe.hostile.map((hostile) => ({ probe, hostile })));
  const setups = new Set(
    cases.flatMap(({ probe, hostile }) =>
      hostileCases(probe, hostile).flatMap((c) => c.setups.map((x) => `${hostile.fixture}\u0000${x}`)),
    ),
  );
  let done = 0;
  const env = environment(io, () => setups.size);
  io.stderr(`arena probe: ${cases.length} hostile fixture(s) over ${probes.length} probe(s)\n`);
  const verdicts = await Promise.all(
    cases.map(async ({ probe, hostile }) => {
      const v = await judgeHostile(probe, hostile, env);
      done += 1;
      io.stderr(`arena probe: fixture ${done}/${cases.length}: ${v.fixture} (${probe.id}): ${v.ok ? (v.control ? "passed, as a control must" : "caught") : "NOT as designed"}\n`);
      return v;
    }),
  );
  // Fixtures the registry does not name are proved by their own suites (tests/run, the witness, the sandbox).
  const named = hostileIndex();
  const elsewhere = filtered ? [] : [...Object.values(FIXTURES), ...Object.values(ARENA_FIXTURES)].filter((f) => !named.has(f.name as FixtureName));
  const { text, failed } = renderFixtures(verdicts, probes, elsewhere);
  io.stdout(text);
  return failed ? 1 : 0;
}

export async function run({ flags, io }: CommandContext): Promise<number> {
  const probeIds = list(flags["probe"]);
  const probes = selectProbes(probeIds);
  const named = list(flags["framework"]);
  const adapters = list(flags["adapter"]);
  if (flags["fixtures"] === true) {
    if (named.length + adapters.length > 0) throw new UsageError("--fixtures runs the hostile catalogue: give it without --framework or --adapter");
    return fixtures(probes, probeIds.length > 0, io);
  }
  return matrix(probes, selectSubjects(named, adapters, io.cwd), io);
}
