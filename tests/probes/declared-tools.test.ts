/**
 * §2 Only declared tools are advertised: in every request, the advertised names minus control
 * tools, handoffs and the adapter's declared delegates equal `namesFor(arena.tools)` exactly. The
 * delegate declaration is checked from both ends: it may not cover a tool any arena declares, and
 * every declared delegate must actually be advertised on the adapter's own arena.
 */
import { describe, expect, it } from "vitest";
import { findAdapter } from "../../workers/adapters/catalog.ts";
import {
  declaredToolsViolations,
  delegateCollisionViolations,
  staleDelegateViolations,
} from "./checks/contract.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters } from "./support.ts";
import {
  adapterMeta,
  allArenaTools,
  fixtureEntry,
  requireBuilt,
  setupRun,
  syntheticRun,
  wireRun,
  SENTINEL_ARENA,
  type WireRun,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §2 findings. Empty: every adapter advertises exactly the arena's tools. */
const KNOWN: KnownFindings = {};

const tool = (name: string) => ({ type: "function", function: { name, description: "", parameters: { type: "object", properties: {} } } });
const body = (...names: string[]) => ({ model: "m", messages: [], tools: names.map(tool) });

describe("§2 only declared tools are advertised", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  it("the check: control tools, handoffs and declared delegates are exempt; extras, duplicates and omissions are not", () => {
    const ok = syntheticRun([body("search", "final_answer", "transfer_to_writer", "writer"), body("transfer_to_editor")]);
    expect(declaredToolsViolations(ok, ["search"], ["writer"])).toEqual([]);
    expect(declaredToolsViolations(syntheticRun([body("search", "writer")]), ["search"], [])[0]).toMatch(/undeclared \["writer"\]/);
    expect(declaredToolsViolations(syntheticRun([body("search", "search")]), ["search"], [])[0]).toMatch(/duplicated \["search"\]/);
    expect(declaredToolsViolations(syntheticRun([body("calculator", "search")]), ["search", "calculator"], [])[0]).toMatch(/advertises/);
    expect(declaredToolsViolations(syntheticRun([body()]), ["search"], [])).toEqual(['no request advertised the arena\'s tools ["search"]']);
    // A pattern is not an exemption: only the fixed list, the one prefix, and declared names.
    expect(declaredToolsViolations(syntheticRun([body("search", "final_answer_v2")]), ["search"], [])).not.toEqual([]);
  });

  describe.concurrent("every adapter", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: advertises exactly the arena's tools; delegate declarations are sound`, async (ctx) => {
        const meta = await adapterMeta(adapter);
        const collisions = delegateCollisionViolations(meta.delegates, allArenaTools());
        const run = await setupRun("sentinel", adapter);
        if (!requireBuilt(ctx, run)) return;
        const own: WireRun[] = [run];
        if (meta.delegates.length > 0) {
          // A delegate only shows up on the adapter's own arena(s): a variant's scope, else any.
          for (const id of findAdapter(adapter.name)?.arenas ?? []) own.push(await setupRun(`schema:${id}`, adapter));
        }
        const violations = [
          ...declaredToolsViolations(run, ["search"], meta.delegates),
          ...collisions,
          ...staleDelegateViolations(meta.delegates, own),
        ];
        const { unexpected, stale } = judge(violations, knownFor(KNOWN, adapter.name, "sentinel"));
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  describe.concurrent("hostile fixtures are caught", () => {
    it("extra-tool (also advertises calculator) fails every request", async () => {
      const run = await wireRun({ adapter: fixtureEntry("extra-tool"), arena: SENTINEL_ARENA });
      const v = declaredToolsViolations(run, ["search"], []);
      expect(v.length).toBe(run.bodies.length);
      expect(v.every((x) => x.includes('undeclared ["calculator"]')), v.join("\n")).toBe(true);
    }, FIXTURE_TIMEOUT_MS);

    it("smuggled-delegate (declares search as a delegate) fails the collision check, and the harness refuses it", async () => {
      const fixture = fixtureEntry("smuggled-delegate");
      const meta = await adapterMeta(fixture);
      const v = delegateCollisionViolations(meta.delegates, allArenaTools());
      expect(v).toEqual([
        "adapter declared ['search'] as delegates, but the arena declares them as tools — a delegate exemption may not cover a task capability",
      ]);
      const run = await wireRun({ adapter: fixture, arena: SENTINEL_ARENA });
      expect(run.framework.available).toBe(false);
      expect(run.framework.reason).toContain("adapter declared ['search'] as delegates");
      expect(declaredToolsViolations(run, ["search"], meta.delegates)[0]).toMatch(/unavailable/);
    }, FIXTURE_TIMEOUT_MS);

    it("stale-delegate (declares writer, never advertises it) fails the stale check — and only that", async () => {
      const fixture = fixtureEntry("stale-delegate");
      const meta = await adapterMeta(fixture);
      const run = await wireRun({ adapter: fixture, arena: SENTINEL_ARENA });
      expect(declaredToolsViolations(run, ["search"], meta.delegates)).toEqual([]);
      expect(delegateCollisionViolations(meta.delegates, allArenaTools())).toEqual([]);
      expect(staleDelegateViolations(meta.delegates, [run])).toEqual([
        'declared delegate "writer" is never advertised on the adapter\'s own arena (a stale exemption)',
      ]);
    }, FIXTURE_TIMEOUT_MS);
  });
});
