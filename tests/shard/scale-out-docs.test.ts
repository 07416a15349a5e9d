/**
 * The checked-in scale-out files (docs/scale-out/) parse, and their wiring is the one `--shard`
 * and `arena merge` need: every shard 1..N run exactly once with the same N, each shard's run
 * folder handed on (an artifact, a shared volume), and the merge last, over all of them.
 *
 * Parsed with PyYAML from the project's own Python environment (pinned and hashed in
 * workers/python/requirements.lock, built into .venv/ by `pnpm install`): the Node side has no
 * YAML parser of its own, and this test adds no dependency for one. PyYAML reads YAML 1.1, where
 * a bare `on` key is the boolean true: the workflow's `on:` comes back as "true".
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseShard } from "../../orchestrator/run/shard.ts";
import { REPO_ROOT } from "../support/reference.ts";

const PYTHON = existsSync(path.join(REPO_ROOT, ".venv/bin/python")) ? path.join(REPO_ROOT, ".venv/bin/python") : "python3";
const DOCS = path.join(REPO_ROOT, "docs/scale-out");

/** Every YAML document of `file`, as JSON values. */
function parseYaml(file: string): any[] {
  const script = "import json, sys, yaml\nprint(json.dumps(list(yaml.safe_load_all(open(sys.argv[1], encoding='utf-8')))))";
  return JSON.parse(execFileSync(PYTHON, ["-c", script, file], { encoding: "utf8" }));
}

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Record<string, unknown>;
  readonly if?: string;
}

describe("docs/scale-out: the GitHub Actions matrix workflow", () => {
  const [workflow] = parseYaml(path.join(DOCS, "github-actions.yml"));
  const shardJob = workflow.jobs.shard;
  const mergeJob = workflow.jobs.merge;
  const shards: number[] = shardJob.strategy.matrix.shard;
  const count: number = workflow.env.SHARDS;

  it("is a workflow with triggers and two jobs", () => {
    expect(workflow.true).toBeDefined();
    expect(Object.keys(workflow.jobs)).toEqual(["shard", "merge"]);
  });

  it("runs each shard 1..N once, as a job of the matrix, with the same N", () => {
    expect(shards).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(shardJob.strategy["fail-fast"]).toBe(false);
    const runs = (shardJob.steps as Step[]).filter((s) => s.run?.includes("arena bench"));
    expect(runs).toHaveLength(1);
    const flag = /--shard (\$\{\{ [^}]+ \}\}\/\$\{\{ [^}]+ \}\})/.exec(runs[0]!.run!)?.[1];
    expect(flag).toBe("${{ matrix.shard }}/${{ env.SHARDS }}");
    // What each job's flag becomes, read by the CLI's own parser.
    const specs = shards.map((s) => parseShard(flag!.replace("${{ matrix.shard }}", String(s)).replace("${{ env.SHARDS }}", String(count))));
    expect(specs).toEqual(shards.map((index) => ({ index, count })));
  });

  it("hands each shard's run folder on as an artifact, and merges them all in the last job", () => {
    const upload = (shardJob.steps as Step[]).find((s) => s.uses?.startsWith("actions/upload-artifact@"))!;
    expect(upload.if).toBe("always()");
    expect(upload.with!.name).toBe("arena-shard-${{ matrix.shard }}");
    expect(upload.with!.path).toBe("${{ env.ARENA_OUTPUT_ROOT }}/runs/2*/");
    expect(workflow.env.ARENA_OUTPUT_ROOT).toBeDefined();

    expect(mergeJob.needs).toBe("shard");
    expect(mergeJob.if).toBe("${{ !cancelled() }}");
    const steps = mergeJob.steps as Step[];
    const download = steps.findIndex((s) => s.uses?.startsWith("actions/download-artifact@"));
    const merge = steps.findIndex((s) => s.run?.includes("arena merge"));
    expect(download).toBeGreaterThan(-1);
    expect(merge).toBeGreaterThan(download);
    const pattern = steps[download]!.with!.pattern as string;
    const into = steps[download]!.with!.path as string;
    // The download pattern takes every shard's artifact, and the merge reads every run folder in them.
    for (const s of shards) expect(`arena-shard-${s}`).toMatch(new RegExp(`^${pattern.replace("*", ".*")}$`));
    expect(steps[merge]!.run).toContain(`arena merge ${into}/${pattern}/2*`);
  });
});

describe("docs/scale-out: the Kubernetes Indexed Job", () => {
  const docs = parseYaml(path.join(DOCS, "kubernetes-indexed-job.yaml"));
  const jobs = docs.filter((d) => d.kind === "Job");
  const shardJob = jobs.find((j) => j.spec.completionMode === "Indexed");
  const mergeJob = jobs.find((j) => j !== shardJob);
  const container = shardJob.spec.template.spec.containers[0];
  const shellLine = (c: { command: string[]; args: string[] }) => {
    expect(c.command).toEqual(["sh", "-c"]);
    return c.args[0]!;
  };

  it("runs shard JOB_COMPLETION_INDEX+1 of N in each of N completions, N the same everywhere", () => {
    const count = shardJob.spec.completions as number;
    expect(shardJob.spec.parallelism).toBe(count);
    expect(container.env.find((e: { name: string }) => e.name === "SHARDS").value).toBe(String(count));
    const line = shellLine(container);
    expect(line).toContain("--shard $((JOB_COMPLETION_INDEX + 1))/$SHARDS");
    // Run the pod's shell line for every index the controller hands out, with the CLI replaced by echo.
    const seen = Array.from({ length: count }, (_, index) =>
      execFileSync("sh", ["-c", line.replace("exec npx pnpm@12.4.2 arena bench", 'echo "$ARENA_OUTPUT_ROOT"')], {
        encoding: "utf8",
        env: { PATH: process.env.PATH, JOB_COMPLETION_INDEX: String(index), SHARDS: String(count) },
      }).trim(),
    );
    expect(seen.map((s) => parseShard(/--shard (\S+)/.exec(s)![1]!))).toEqual(Array.from({ length: count }, (_, i) => ({ index: i + 1, count })));
    // Each shard writes under its own output root on the shared volume.
    expect(new Set(seen.map((s) => s.split(" ")[0])).size).toBe(count);
    expect(seen[0]).toMatch(/^\/runs\/shard-1 /);
  });

  it("merges every shard's run folder from the same volume, after the shard Job completes", () => {
    const volume = (job: any) => job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName;
    expect(volume(mergeJob)).toBe(volume(shardJob));
    const wait = mergeJob.spec.template.spec.initContainers[0];
    expect(wait.command).toContain(`job/${shardJob.metadata.name}`);
    expect(wait.command).toContain("--for=condition=complete");
    const merge = shellLine(mergeJob.spec.template.spec.containers[0]);
    // The shards' output roots are /runs/shard-<i>: their run folders are /runs/shard-<i>/runs/<run-id>.
    expect(merge).toContain("arena merge /runs/shard-*/runs/2*");
    const role = docs.find((d) => d.kind === "Role");
    expect(role.rules[0]).toMatchObject({ apiGroups: ["batch"], resources: ["jobs"] });
    expect(docs.find((d) => d.kind === "RoleBinding").subjects[0].name).toBe(mergeJob.spec.template.spec.serviceAccountName);
  });
});
