/**
 * `pnpm install`'s first step: the CLI's bundle (orchestrator/cli/bundle/), so the first `arena`
 * command after an install starts from it. Never fails the install: without a bundle `arena`
 * starts from the sources, and says nothing different.
 */
import { buildCliBundle } from "../orchestrator/cli/bundle/build.ts";

try {
  const built = await buildCliBundle();
  process.stdout.write(`arena: the CLI's bundle is built from ${built.inputs} files (${built.dir})\n`);
} catch (err) {
  process.stdout.write(`arena: the CLI's bundle could not be built, so arena starts from its sources: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}\n`);
}
