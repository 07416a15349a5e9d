/**
 * A small live run on loopback for the CLI suites: an arena of `n` sums (`What is k plus 2?`,
 * checked for k + 2), the environment that points a run at a fake provider, and a reply that is
 * right for the items a test picks.
 */
import { tempRoot, writeArena } from "../arena-loader/fixture.ts";
import { answer, FAKE_MODEL, type ProviderReply } from "./fake-provider.ts";

export const LIVE_KEY = "sk-test-0123456789abcdefghijKLMN";

export function liveEnv(env: Record<string, string>, baseUrl: string): Record<string, string> {
  return { ...env, OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: LIVE_KEY, ARENA_MODEL: FAKE_MODEL, ARENA_REQUEST_TIMEOUT_S: "5" };
}

/** An arenas folder holding one arena, `sums`, of `n` items `s-1` … `s-n`. */
export function sumsArenas(n: number): string {
  const root = tempRoot();
  const dataset = Array.from({ length: n }, (_, i) => i + 1)
    .map((k) => JSON.stringify({ id: `s-${k}`, input: `What is ${k} plus 2?`, checks: [{ type: "contains", value: String(k + 2) }] }))
    .join("\n");
  writeArena(root, "sums", { dataset: `${dataset}\n` });
  return root;
}

/** The `k` of a request's `What is k plus 2?`. */
export function sumOf(body: string): number {
  return Number(/What is (\d+) plus 2/.exec(body)?.[1]);
}

/** The right answer when `right(k)`, a wrong one otherwise. */
export function sumReply(body: string, right: (k: number) => boolean): ProviderReply {
  const k = sumOf(body);
  return answer(`The answer is ${right(k) ? k + 2 : k + 100}.`);
}

export const liveRunArgs = (arenas: string, ...extra: string[]) => ["run", "--arenas-dir", arenas, "--arena", "sums", "--framework", "vanilla", "--mode", "live", ...extra];
