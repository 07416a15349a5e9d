/**
 * Issue 20's "Done when", on the real CLI against a fake provider on loopback: 429s, 5xx, resets,
 * hangs past the request timeout, a slow drip that stalls, a 200 that is not JSON, and a provider
 * that dies mid-run, through `arena run --mode live` on three adapters that retry differently
 * (vanilla never, langgraph once, openai_agents twice). Every cell the provider failed is `infra`
 * on every adapter, no violation is charged for it, the retries are counted, and the circuit
 * breaker stops a dead provider's run with exit 3 and the resume command. The provider decides by
 * the item a request is for and how often that item asked, never by timing.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { tempRoot, writeArena } from "../arena-loader/fixture.ts";
import { arenaCli, outputRoot, runIdsIn } from "../support/cli.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { answer, FAKE_MODEL, fakeProvider, type ProviderMisdeed, type ProviderReply } from "../support/fake-provider.ts";

const KEY = "sk-test-0123456789abcdefghijKLMN";
const ADAPTERS = ["vanilla", "langgraph", "openai_agents"] as const;

/** Item n's fate at the provider; 1 is healthy, 8 is rate-limited once and then served. */
const FATES: Record<number, string> = { 1: "healthy", 2: "429", 3: "503", 4: "reset", 5: "hang", 6: "drip", 7: "not-json", 8: "429-once" };
const PROVIDER_FAILED = [2, 3, 4, 5, 6, 7];

function sumsArena(count: number): string {
  const arenas = tempRoot();
  const items = Array.from({ length: count }, (_, i) => i + 1).map((n) =>
    JSON.stringify({ id: `s-0${n}`, input: `What is ${n} plus 2?`, checks: [{ type: "contains", value: String(n + 2) }] }),
  );
  writeArena(arenas, "sums", { dataset: `${items.join("\n")}\n` });
  return arenas;
}

const itemOf = (body: string) => Number(/What is (\d) plus 2/.exec(body)?.[1]);

function liveEnv(env: Record<string, string>, baseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  // A 2 s request timeout: a hang or a drip costs each adapter its attempts × 2 s, not minutes.
  return { ...env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: KEY, ARENA_MODEL: FAKE_MODEL, ARENA_REQUEST_TIMEOUT_S: "2", ...extra };
}

function recordedItems(root: string, id: string): Map<string, ItemRecord[]> {
  const record = JSON.parse(readFileSync(path.join(root, "runs", id, "records", "sums.json"), "utf8")) as {
    frameworks: { framework: string; items: ItemRecord[] }[];
  };
  return new Map(record.frameworks.map((f) => [f.framework, f.items]));
}

describe("provider faults on the real CLI, live mode", () => {
  it("every cell the provider failed is infra on every adapter, no violation is charged for it, and retries are counted", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArena(8);
    const asked = new Map<string, number>();
    const provider = await fakeProvider((_n, body): ProviderReply | ProviderMisdeed => {
      const n = itemOf(body);
      // Per adapter and item: the worker key is the same for all, the body's item is not shared across adapters' counts.
      const times = (asked.get(body) ?? 0) + 1;
      asked.set(body, times);
      switch (FATES[n]) {
        case "429":
          return { status: 429, body: { error: { message: "Rate limit reached", type: "rate_limit_error" } } };
        case "503":
          return { status: 503, body: { error: { message: "overloaded, try later", type: "server_error" } } };
        case "reset":
          return { kind: "reset" };
        case "hang":
          return { kind: "hang" };
        case "drip":
          return { kind: "drip" };
        case "not-json":
          return { kind: "raw", status: 200, text: "<html><body>502 Bad Gateway</body></html>" };
        case "429-once":
          // The same body again is a retry of the same request (every adapter sends one call here).
          if (times === 1) return { status: 429, body: { error: { message: "Rate limit reached", type: "rate_limit_error" } } };
          return answer(`The answer is ${n + 2}.`);
        default:
          return answer(`The answer is ${n + 2}.`);
      }
    });
    try {
      const frameworks = ADAPTERS.flatMap((a) => ["--framework", a]);
      // The breaker off (0): this run is about classification; the next test is the breaker's.
      const r = await arenaCli(
        ["run", "--arenas-dir", arenas, "--arena", "sums", ...frameworks, "--mode", "live"],
        liveEnv(env, provider.baseUrl, { ARENA_MAX_PROVIDER_FAULTS: "0" }),
      );
      expect(r.exitCode, r.stdout + r.stderr).toBe(3);
      const id = runIdsIn(root)[0]!;
      const byAdapter = recordedItems(root, id);
      for (const adapter of ADAPTERS) {
        const items = byAdapter.get(adapter)!;
        const of = (n: number) => items.find((i) => i.item_id === `s-0${n}`)!;
        const where = (n: number) => `${adapter} s-0${n} (${FATES[n]}): ${JSON.stringify(of(n))}`;
        expect(of(1).passed, where(1)).toBe(true);
        expect(of(1).provider_faults, where(1)).toBeUndefined();
        for (const n of PROVIDER_FAILED) {
          const item = of(n);
          expect(item.passed, where(n)).toBe(false);
          expect(item.error_class, where(n)).toBe("infra");
          expect(item.violations, where(n)).toBeUndefined();
          expect(item.provider_faults?.length, where(n)).toBeGreaterThan(0);
        }
        expect(of(2).provider_faults!.every((f) => f.fault === "rate_limited" && f.status === 429), where(2)).toBe(true);
        expect(of(3).provider_faults!.every((f) => f.fault === "server_error"), where(3)).toBe(true);
        expect(of(4).provider_faults!.every((f) => f.fault === "reset"), where(4)).toBe(true);
        expect(of(5).provider_faults!.every((f) => f.fault === "timeout"), where(5)).toBe(true);
        expect(of(6).provider_faults!.every((f) => f.fault === "timeout"), where(6)).toBe(true);
        expect(of(7).provider_faults!.every((f) => f.fault === "malformed" && f.status === 200), where(7)).toBe(true);
        // Rate-limited once: a framework that retries it is served and passes, its retry credited
        // and no violation; one that does not (the baseline never retries; LangChain 1.x here
        // gives up on a 429 with RateLimitCapacityError) leaves a cell that is the provider's.
        const once = of(8);
        if (once.passed) expect([once.retries, once.violations], where(8)).toEqual([1, undefined]);
        else expect([once.error_class, once.retries], where(8)).toEqual(["infra", 0]);
        if (adapter === "vanilla") expect(once.passed, where(8)).toBe(false);
        if (adapter === "openai_agents") expect(once.passed, where(8)).toBe(true);
      }
      // A framework that retries makes more attempts on an always-failing item than one that does not.
      const attempts = (adapter: string, n: number) => byAdapter.get(adapter)!.find((i) => i.item_id === `s-0${n}`)!.provider_faults!.length;
      expect(attempts("vanilla", 3)).toBe(1);
      expect(attempts("openai_agents", 3)).toBeGreaterThan(1);
      // Each lane was served in part and nothing was published before: it is published, and its
      // published cells are the run's own, the provider's ones among them still infra (the figures
      // over them leave those out: report/not-served.ts, tests/cli/provider-figures.test.ts).
      const published = JSON.parse(readFileSync(path.join(root, "results", "sums", "published.json"), "utf8")) as { record: { frameworks: { framework: string; items: ItemRecord[] }[] } };
      for (const adapter of ADAPTERS) {
        const infra = published.record.frameworks.find((f) => f.framework === adapter)!.items.filter((i) => i.error_class === "infra").length;
        expect(infra, adapter).toBe(byAdapter.get(adapter)!.filter((i) => i.error_class === "infra").length);
      }
    } finally {
      await provider.close();
    }
  }, 300_000);

  it("a hang-up before the run's request timeout is the framework's own, not excused as the provider's (fixture fixed-timeout)", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArena(2);
    // Item 2 is never answered: an honest adapter waits its 3 s and gives up; fixed-timeout gives up after 1 s.
    const provider = await fakeProvider((_n, body) => (itemOf(body) === 2 ? { kind: "hang" } : answer(`The answer is ${itemOf(body) + 2}.`)));
    try {
      const fixture = path.join(REPO_ROOT, "fixtures", "adapters", "fixed-timeout", "index.ts");
      const r = await arenaCli(
        ["run", "--arenas-dir", arenas, "--arena", "sums", "--framework", "vanilla", "--adapter", fixture, "--mode", "live"],
        liveEnv(env, provider.baseUrl, { ARENA_REQUEST_TIMEOUT_S: "3", ARENA_MAX_PROVIDER_FAULTS: "0" }),
      );
      expect(r.exitCode, r.stdout + r.stderr).toBe(3);
      const byAdapter = recordedItems(root, runIdsIn(root)[0]!);
      const hung = (adapter: string) => byAdapter.get(adapter)!.find((i) => i.item_id === "s-02")!;
      expect(hung("vanilla").error_class, JSON.stringify(hung("vanilla"))).toBe("infra");
      expect(hung("vanilla").provider_faults?.map((f) => f.fault)).toEqual(["timeout"]);
      // Its own 1 s timeout: the failure stays in its figures, classed by what it raised.
      expect(hung("fixed-timeout").error_class, JSON.stringify(hung("fixed-timeout"))).not.toBe("infra");
      expect(hung("fixed-timeout").provider_faults).toBeUndefined();
    } finally {
      await provider.close();
    }
  }, 120_000);

  it("a provider that dies mid-run: the breaker stops dispatching, exit 3 with one line naming the cause and the resume command", async () => {
    const { root, env } = outputRoot();
    const arenas = sumsArena(9);
    // Two answers, then the provider dies on the third request (nothing reaches it until it is revived).
    const provider = await fakeProvider((n, body) => (n === 2 ? { kind: "die" } : answer(`The answer is ${itemOf(body) + 2}.`)));
    try {
      const r = await arenaCli(
        ["run", "--arenas-dir", arenas, "--arena", "sums", "--framework", "vanilla", "--mode", "live", "--concurrency", "1"],
        liveEnv(env, provider.baseUrl, { ARENA_MAX_PROVIDER_FAULTS: "3" }),
      );
      expect(r.exitCode, r.stdout + r.stderr).toBe(3);
      expect(provider.dead()).toBe(true);
      const id = runIdsIn(root)[0]!;
      const lines = r.stderr.trimEnd().split("\n");
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^arena: the provider failed 3 attempts in a row \\(the last: unreachable\\); the circuit breaker stopped dispatching items \\(ARENA_MAX_PROVIDER_FAULTS=3\\); ` +
            `5 cell\\(s\\) finished are kept in .*journal\\.jsonl; once the provider is back, resume with: pnpm arena run --retry-errors ${id} \\(exit 3\\)$`,
        ),
      );
      // Two served, then three the provider failed: the rest were never dispatched.
      const items = recordedItems(root, id).get("vanilla")!;
      expect(items.map((i) => i.error_class ?? null)).toEqual([null, null, "infra", "infra", "infra"]);
      expect(items.slice(2).map((i) => i.provider_faults!.map((f) => f.fault))).toEqual([["reset"], ["unreachable"], ["unreachable"]]);
      // The progress names the first provider-failed cell and counts the ones like it, not a line each.
      const progress = lines.filter((l) => l.startsWith("vanilla/sums/") || l.startsWith("  … and"));
      expect(progress).toHaveLength(3);
      expect(progress[2]).toBe("  … and 1 more cell(s) errored the same way (provider unreachable)");
      // A run the breaker stopped is unfinished: nothing is published until it is resumed.
      const publishedFile = path.join(root, "results", "sums", "published.json");
      expect(existsSync(publishedFile)).toBe(false);

      // The command the line names, once the provider is back: the failed and the undispatched cells run, all pass.
      await provider.revive();
      const resumed = await arenaCli(["run", "--retry-errors", id], liveEnv(env, provider.baseUrl, { ARENA_MAX_PROVIDER_FAULTS: "3" }));
      expect(resumed.exitCode, resumed.stdout + resumed.stderr).toBe(0);
      const after = recordedItems(root, id).get("vanilla")!;
      expect([after.length, after.every((i) => i.passed)]).toEqual([9, true]);
      const published = JSON.parse(readFileSync(publishedFile, "utf8")) as { record: { frameworks: { framework: string; items: ItemRecord[] }[] } };
      expect(published.record.frameworks.find((f) => f.framework === "vanilla")!.items.filter((i) => i.passed)).toHaveLength(9);
    } finally {
      await provider.close();
    }
  }, 120_000);
});
