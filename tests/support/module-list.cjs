// Preloaded into the CLI by tests/cli/lazy-modules.test.ts: at exit, the built-in modules this
// process loaded, one per line, into the file ARENA_TEST_MODULE_LIST names.
"use strict";
const out = process.env.ARENA_TEST_MODULE_LIST;
if (out) process.on("exit", () => require("node:fs").writeFileSync(out, process.moduleLoadList.join("\n")));
