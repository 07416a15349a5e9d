#!/usr/bin/env node
/** The `arena` executable. Everything testable lives in main.ts; this only binds it to the process. */
import { enableCompileCache } from "node:module";

// The CLI loads a few hundred modules on every start; Node's compile cache makes later starts cheaper.
enableCompileCache();
const { EXIT_INTERNAL, main } = await import("./main.ts");

try {
  process.exitCode = await main(process.argv.slice(2), {
    cwd: process.cwd(),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
  });
} catch (err) {
  // Only a bug in the harness gets here (bad input is reported by main), so keep the stack.
  process.stderr.write(`arena: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = EXIT_INTERNAL;
}
