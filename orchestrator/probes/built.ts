/**
 * The matrix guard, per run: an adapter that could not be built is skipped — unless it is the
 * baseline or `ARENA_EXPECT_FRAMEWORKS` names it, in which case the probe fails loudly instead of
 * silently shrinking the matrix. "unsupported" (no resume on a pause arena) is not a build failure:
 * each probe judges it against its own declaration.
 */
import type { FrameworkRecord } from "../report/record.ts";

export function expectedFrameworks(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ARENA_EXPECT_FRAMEWORKS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

export function mustBuild(adapter: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return adapter === "vanilla" || expectedFrameworks(env).includes(adapter);
}

/** False (and the test skipped) for an unbuilt adapter nobody requires; throws for a required one. */
export function proceed(ctx: { skip: (note?: string) => void }, fw: FrameworkRecord): boolean {
  if (fw.available || fw.unavailable_kind === "unsupported") return true;
  const why = `${fw.framework} could not be built (${fw.unavailable_kind}): ${fw.reason}`;
  if (mustBuild(fw.framework)) throw new Error(why);
  ctx.skip(why);
  return false;
}
