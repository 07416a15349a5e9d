/**
 * Exit codes a CI can use, on the real CLI: expectations decide 0 or 1, infrastructure is 3 and
 * reaches results/ only as the cells the provider served, bad configuration is 2 naming the variable, secrets never reach a file,
 * and an arena the harness cannot run faithfully is unsupported, not passed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arenaCli, filesUnder, outputRoot, runIdsIn } from "../support/cli.ts";
import { closedBaseUrl } from "../support/closed-port.ts";
import { answer, FAKE_MODEL, fakeProvider } from "../support/fake-provider.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS, REPO_ROOT } from "../support/reference.ts";
import { tempRoot, writeArena } from "../arena-loader/fixture.ts";

const lastLine = (text: string) => text.trimEnd().split("\n").at(-1) ?? "";
const KEY = "sk-test-0123456789abcdefghijKLMN";

function liveEnv(env: Record<string, string>, baseUrl: string): Record<string, string> {
  return { ...env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: KEY, ARENA_MODEL: FAKE_MODEL, ARENA_REQUEST_TIMEOUT_S: "5" };
}

describe("exit codes (real CLI)", () => {
  // No time limit (0), as for bench below: four real runs of one arena, bounded by their own deadlines.
  it("mock findings listed in the expectations file exit 0; a difference exits 1 with the diff and the update command; --update-expected accepts it", { timeout: 0 }, async () => {
    const { root, env } = outputRoot();
    const args = ["run", "--arena", "resilience", "--framework", "vanilla", "--framework", "langgraph", "--framework", "openai_agents"];
    const listed = await arenaCli(args, env);
    expect(listed.exitCode, listed.stdout + listed.stderr).toBe(0);
    expect(lastLine(listed.stdout)).toMatch(/^results match the expectations; summary: /);
    // A failure comes with its reason and what the model said, on the terminal and in the scorecard.
    expect(listed.stderr).toMatch(/^langgraph\/resilience\/res-01: (failed|errored) — \S.*; answer: .+$/m);
    const scorecard = readFileSync(path.join(root, "runs", runIdsIn(root)[0]!, "scorecards", "resilience", "scorecard.md"), "utf8");
    expect(scorecard).toMatch(/^\*\*Failed items\*\*$/m);
    expect(scorecard).toMatch(/^- `langgraph` `res-01` — \S.*; answer: .+$/m);

    const strict = await arenaCli([...args, "--strict"], env);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toContain("resilience/langgraph/res-01: fails (listed as expected");

    // The same run judged against a file that does not list langgraph's finding.
    const file = path.join(root, "expectations.toml");
    const shipped = readFileSync(path.join(REPO_ROOT, "arenas", "expectations.toml"), "utf8");
    writeFileSync(file, shipped.slice(0, shipped.indexOf("# workers/adapters/langgraph/README.md")));
    const diff = await arenaCli([...args, "--expectations", file], env);
    expect(diff.exitCode).toBe(1);
    const id = runIdsIn(root).at(-1)!;
    expect(diff.stdout).toContain("resilience/langgraph/res-01: fails, not expected to");
    expect(diff.stdout).toContain(`to accept these results as expected: pnpm arena run --resume ${id} --update-expected`);

    const update = await arenaCli(["run", "--resume", id, "--update-expected", "--expectations", file], env);
    expect(update.exitCode, update.stdout + update.stderr).toBe(0);
    expect(update.stdout).toContain("added resilience/langgraph/res-01");
    expect(readFileSync(file, "utf8")).toMatch(/framework = "langgraph"\nitems = \[ "res-01" \]\nreason = "TODO: /);
    const again = await arenaCli([...args, "--expectations", file], env);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain("the reason is still the placeholder");
  });

  // No time limit (0): how long real CLI runs take is the shared machine's load, not something
  // these tests are about, and every worker leg has the harness's own deadline, so a run ends.
  // What bounds them is the work: two small arenas (one durable, for the warm spares) instead of
  // all seven. At 1000 in flight each of the 7 pools can hold 30 workers (20 item runs, 10 durable
  // spares: config/concurrency.ts), 210 × 384 MiB ≈ 79 GiB — more than 75% of the memory of any
  // machine with under 105 GiB available, so the clamp is shown (all seven arenas: under ~480 GiB).
  it("`bench` over every adapter with --concurrency 1000: clamped with a message, exit 0, the last line names the summary", { timeout: 0 }, async () => {
    const { root, env } = outputRoot();
    const r = await arenaCli(["bench", "--arena", "resilience", "--arena", "durable_state", "--concurrency", "1000"], env);
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^arena: --concurrency 1000 clamped to \d+: /m);
    const id = runIdsIn(root)[0]!;
    const runDir = path.join(root, "runs", id);
    expect(lastLine(r.stdout)).toBe(
      `results match the expectations; summary: ${path.relative(REPO_ROOT, path.join(runDir, "summary.md"))}; report: ${path.relative(REPO_ROOT, path.join(runDir, "report.html"))}`,
    );
  });

  it("run --adapter PATH: an author's own module runs like a catalogue entry, and a rule it breaks exits 1, named on the last line", async () => {
    const { env } = outputRoot();
    const module = path.join(REPO_ROOT, "fixtures", "adapters", "late-model-swap", "index.ts");
    const r = await arenaCli(["run", "--arena", "tool_use", "--adapter", module], env);
    expect(r.exitCode, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain("tool_use late-model-swap: 18/18 passed");
    expect(r.stdout).toMatch(/^tool_use\/late-model-swap\/tu-\d+: breaks rule model, not expected to: leg 1 request \d+: model "gpt-4o-cheaper-snapshot", configured "gpt-4.1-mini"$/m);
    expect(lastLine(r.stdout)).toMatch(/^\d+ difference\(s\) from the expectations \(violation\), first unexpected rule violation: tool_use\/late-model-swap\/tu-\d+ model; summary: /);
    const missing = await arenaCli(["run", "--arena", "tool_use", "--adapter", "no/such/index.ts"], env);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("--adapter no/such/index.ts: no such file");
  }, 60_000);

  it("bad configuration is exit 2 naming the variable or flag, before anything runs", async () => {
    const { root, env } = outputRoot();
    const cases: [Record<string, string>, string[], RegExp][] = [
      [{ ARENA_TEMPERATURE: "0.7x" }, [], /ARENA_TEMPERATURE: '0.7x' is not a number/],
      [{ ARENA_REQUEST_TIMEOUT_S: "0" }, [], /ARENA_REQUEST_TIMEOUT_S: .*0/],
      [{}, ["--concurrency", "1e3"], /--concurrency: '1e3' is not a whole number/],
      [{}, ["--repeat", "0x2"], /--repeat: '0x2' is not a whole number/],
    ];
    for (const [extra, flags, message] of cases) {
      const r = await arenaCli(["run", "--arena", "resilience", "--framework", "vanilla", ...flags], { ...env, ...extra });
      expect(r.exitCode, `${JSON.stringify(extra)} ${flags.join(" ")}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(() => runIdsIn(root)).toThrow(); // no runs/ folder at all: nothing ran
  }, 60_000);

  it("live mode against a closed port: one line, exit 3, and results/ untouched", async () => {
    const { root, env } = outputRoot();
    const published = path.join(root, "results", "resilience", "scorecard.md");
    mkdirSync(path.dirname(published), { recursive: true });
    writeFileSync(published, "published earlier\n");
    const baseUrl = await closedBaseUrl();
    const r = await arenaCli(["run", "--arena", "resilience", "--framework", "vanilla", "--mode", "live"], liveEnv(env, baseUrl));
    expect(r.exitCode).toBe(3);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`provider unreachable at ${baseUrl}: `);
    expect(r.stderr).toMatch(/ECONNREFUSED.* — nothing ran \(exit 3\)$/m);
    expect(readFileSync(published, "utf8")).toBe("published earlier\n");
  }, 60_000);

  it("a provider that fails mid-run: the items are infra errors, exit 3, results/ only the served cells' row; --retry-errors reruns only those", async () => {
    const { root, env } = outputRoot();
    const arenas = tempRoot();
    writeArena(arenas, "sums", {
      dataset: [1, 2, 3, 4].map((n) => JSON.stringify({ id: `s-0${n}`, input: `What is ${n} plus 2?`, checks: [{ type: "contains", value: String(n + 2) }] })).join("\n") + "\n",
    });
    let healthy = false;
    const provider = await fakeProvider((_n, body) => {
      const n = Number(/What is (\d) plus 2/.exec(body)?.[1]);
      if (!healthy && n % 2 === 0) return { status: 503, body: { error: { message: "overloaded" } } };
      return answer(`The answer is ${n + 2}.`);
    });
    try {
      const live = liveEnv(env, provider.baseUrl);
      const first = await arenaCli(["run", "--arenas-dir", arenas, "--arena", "sums", "--framework", "vanilla", "--mode", "live"], live);
      expect(first.exitCode, first.stdout + first.stderr).toBe(3);
      const id = runIdsIn(root)[0]!;
      expect(lastLine(first.stdout)).toBe(
        `exit 3: 2 infra and 0 harness error(s) — these results are not the frameworks' own; results/ got only the lanes the provider served (rerun them: pnpm arena run --retry-errors ${id})`,
      );
      // Exit 3 still writes the report: it is the run someone opens one to understand.
      expect(existsSync(path.join(root, "runs", id, "report.html"))).toBe(true);
      expect(first.stdout).toMatch(/^report: .*report\.html$/m);
      const record = JSON.parse(readFileSync(path.join(root, "runs", id, "records", "sums.json"), "utf8"));
      expect(record.frameworks[0].items.map((i: { error_class?: string }) => i.error_class ?? null)).toEqual([null, "infra", null, "infra"]);
      // Nothing was published before, so the served half is (tests/cli/provider-faults.test.ts: never over a better row).
      expect(readFileSync(path.join(root, "results", "sums", "scorecard.md"), "utf8")).toMatch(/100% \(2\/2\) \| 0 \| 2 \(2× 503\) \|/);

      healthy = true;
      const before = provider.completions();
      const retry = await arenaCli(["run", "--retry-errors", id], live);
      expect(retry.exitCode, retry.stdout + retry.stderr).toBe(0);
      expect(provider.completions() - before).toBe(2);
      expect(readFileSync(path.join(root, "results", "sums", "scorecard.md"), "utf8")).toContain("100% (4/4)");
    } finally {
      await provider.close();
    }
  }, 120_000);

  it("a provider that echoes the API key: the key is in no file and on no terminal line", async () => {
    const { root, env } = outputRoot();
    const provider = await fakeProvider(() => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}. Bearer ${KEY}` } } }));
    try {
      // Judged by a pass rate, so every item failing is a difference (a live run asks for its judgement).
      const r = await arenaCli(["run", "--arena", "resilience", "--framework", "vanilla", "--mode", "live", "--min-pass-rate", "1"], liveEnv(env, provider.baseUrl));
      expect(r.exitCode, r.stderr).toBe(1);
      expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
      const files = filesUnder(root);
      expect(files.some((f) => f.includes("journal.jsonl"))).toBe(true);
      expect(files.some((f) => f.includes("/logs/"))).toBe(true);
      for (const f of files) expect(readFileSync(path.join(root, f), "utf8"), f).not.toContain(KEY);
      const record = readFileSync(path.join(root, "runs", runIdsIn(root)[0]!, "records", "resilience.json"), "utf8");
      expect(record).toContain("Incorrect API key provided: [REDACTED]");
    } finally {
      await provider.close();
    }
  }, 60_000);
});

describeWithReference("an arena the harness cannot run faithfully", () => {
  it("reference boundary_response is unsupported with a reason on every adapter, never passed", async () => {
    const { env } = outputRoot();
    const r = await arenaCli(
      ["run", "--arenas-dir", REFERENCE_ARENAS, "--corpus", REFERENCE_CORPUS, "--arena", "boundary_response", "--framework", "vanilla"],
      env,
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("boundary_response vanilla: not available (the harness cannot run this arena faithfully: boundary_action needs");
    expect(r.stdout).not.toMatch(/passed/);
  }, 60_000);
});
