/**
 * A framework package's version, read from its package.json without loading the framework: an
 * adapter's `libVersion` must work (and say "not installed") where the package is missing.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** The installed version of `pkg`, or null when it is not installed. */
export function versionOf(pkg: string): string | null {
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}
