#!/usr/bin/env node
/**
 * The `arena` executable. Everything testable lives in main.ts; this only binds it to the process.
 * It is plain JavaScript on purpose: Node's compile cache (which also keeps the result of type
 * stripping) must be on before the first TypeScript file loads, or every start pays for loading
 * the TypeScript stripper itself — on the project VM 280 ms for `arena --help` against 100 ms.
 *
 * It must also *parse* on an older Node, to say what is wrong instead of dying with a stack: so
 * no named import that an old `node:module` lacks (a missing named export is a SyntaxError before
 * any line runs), and the TypeScript is imported only after the version check.
 */
import * as nodeModule from "node:module";

/** The oldest Node this runs on; package.json's `engines.node` says the same (a test keeps them equal). */
const REQUIRED_NODE = "24.21.0";

/** `a` ≥ `b` for dotted versions (`24.21.0`); a pre-release tag (`-nightly…`) is ignored. */
function atLeast(a, b) {
  const pa = a.split("-")[0].split(".").map(Number);
  const pb = b.split("-")[0].split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const x = pa[i] || 0;
    const y = pb[i] || 0;
    if (x !== y) return x > y;
  }
  return true;
}

if (!atLeast(process.versions.node, REQUIRED_NODE)) {
  process.stderr.write(
    `arena: needs Node >= ${REQUIRED_NODE}, but this is Node ${process.versions.node} (${process.execPath}); ` +
      "run it as `pnpm arena …` from the project, which uses the project's own Node 24\n",
  );
  // EXIT_USAGE (exit-codes.ts), written out: this branch runs on a Node that cannot load TypeScript.
  process.exitCode = 2;
} else {
  nodeModule.enableCompileCache();
  // From the CLI's bundle when it is fresh, else the sources (bundle/fresh.mjs): the same code.
  const { loadCli, cliBundleSetting } = await import("./bundle/fresh.mjs");
  const setting = cliBundleSetting();
  if (typeof setting === "object") {
    // As a bad ARENA_* value is refused everywhere else (config/values.ts): one line, EXIT_USAGE.
    process.stderr.write(`arena: ARENA_CLI_BUNDLE: '${setting.invalid}' is not on or off\n`);
    process.exit(2);
  }
  const { main, EXIT_INFRA, terminalWriter } = await loadCli(process.argv[2]);
  // A reader that went away (`| head`, a closed terminal) stops the output, never the run.
  const stdout = terminalWriter(process.stdout);
  const stderr = terminalWriter(process.stderr);
  try {
    process.exitCode = await main(process.argv.slice(2), { cwd: process.cwd(), stdout, stderr });
  } catch (err) {
    // Only a bug in the harness gets here (bad input is reported by main), so keep the stack.
    stderr(`arena: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = EXIT_INFRA;
  }
}
