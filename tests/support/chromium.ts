/**
 * The system Chromium for the report's browser test and size benchmark, driven by playwright-core
 * (which downloads no browser of its own). `ARENA_CHROMIUM` names another executable.
 */
import { accessSync, constants } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidate = env.ARENA_CHROMIUM?.trim() || DEFAULT_CHROMIUM;
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return undefined;
  }
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  // --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start; the page is
  // our own local file.
  return chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}
