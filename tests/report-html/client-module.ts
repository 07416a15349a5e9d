/**
 * A pure client file of the report run in Node: the page concatenates its client files into one
 * function scope (render.ts), so a test does the same with the files it needs and takes back the
 * functions it names. The code tested is the very text the page inlines.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const CLIENT = path.join(import.meta.dirname, "../../orchestrator/report/html/client");

export function clientFunctions<T>(files: readonly string[], names: readonly string[]): T {
  const code = files.map((f) => readFileSync(path.join(CLIENT, f), "utf8")).join("\n");
  return new Function(`"use strict";\n${code}\nreturn { ${names.join(", ")} };`)() as T;
}
