/**
 * `pnpm lock:python`: regenerates workers/python/requirements.lock and installer.lock from their
 * `.in` files with the locked uv, hashes for every file of every pinned version and markers for
 * every platform (`--universal`), for the oldest Python the project supports. Run it after
 * changing a pin; `pnpm setup:python` then rebuilds `.venv/`.
 */
import { execa } from "execa";
import { INSTALLER_LOCK, INSTALLER_REQUIREMENTS, LOCK, MIN_PYTHON, REQUIREMENTS, versionText } from "./env.ts";
import { bootstrapUv } from "./setup.ts";

const base = process.env.ARENA_PYTHON_BASE?.trim() || "python3";
const { stdout } = await execa(base, ["-c", "import sys; print(sys.executable)"]);
const uv = await bootstrapUv({ executable: stdout.trim(), version: [0, 0, 0] });
for (const [input, output] of [[REQUIREMENTS, LOCK], [INSTALLER_REQUIREMENTS, INSTALLER_LOCK]] as const) {
  await execa(uv, ["pip", "compile", input, "--generate-hashes", "--universal", "--python-version", versionText(MIN_PYTHON),
    "--custom-compile-command", "pnpm lock:python", "-q", "-o", output], { stdio: "inherit", env: { UV_NO_CONFIG: "1" } });
  process.stdout.write(`wrote ${output}\n`);
}
