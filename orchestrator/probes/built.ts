/**
 * The matrix guard, per run: an adapter that could not be built is skipped — unless it is the
 * baseline or `ARENA_EXPECT_FRAMEWORKS` names it, in which case the probe fails loudly instead of
 * silently shrinking the matrix. "unsupported" (no resume on a pause arena) is not a build failure:
 * each probe judges it against its own declaration.
 */
import type { AdapterRecord } from "../report/record.ts";

export function expectedAdapters(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.ARENA_EXPECT_FRAMEWORKS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
}

export function mustBuild(adapter: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return adapter === "vanilla" || expectedAdapters(env).includes(adapter);
}

/** False (and the test skipped) for an unbuilt adapter nobody requires; throws for a required one. */
export function proceed(ctx: { skip: (note?: string) => void }, adapterRecord: AdapterRecord): boolean {
  if (adapterRecord.available || adapterRecord.unavailable_kind === "unsupported") return true;
  const why = `${adapterRecord.framework} could not be built (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`;
  if (mustBuild(adapterRecord.framework)) throw new Error(why);
  ctx.skip(why);
  return false;
}
