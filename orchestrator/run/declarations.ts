/**
 * An adapter's wire declaration (contract/declarations.ts), read as data from
 * `declarations.json` beside its module — never by loading the adapter. The file is keyed by
 * adapter name, so a folder's variants (`vanilla` and `vanilla-multi`) share it. No file, or no
 * entry for the name: the adapter is held to the baseline's wire. A file that is there but wrong
 * is an error naming the file, the line and the field.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BASELINE_DECLARATION, WireDeclarationSchema, type WireDeclaration } from "../../contract/declarations.ts";
import { nonRegularKind } from "../../contract/regular-file.ts";

export const DECLARATIONS_FILE = "declarations.json";

export class DeclarationError extends Error {
  override readonly name = "DeclarationError";
  readonly file: string;
  readonly line: number;
  readonly field: string;
  readonly problem: string;
  constructor(file: string, line: number, field: string, problem: string) {
    super(`${file}:${line}: ${field ? `${field}: ` : ""}${problem}`);
    this.file = file;
    this.line = line;
    this.field = field;
    this.problem = problem;
  }
}

/**
 * The line a JSON path's last key sits on: each key is looked for after the previous one, which
 * is exact for the files this reads (one key per line, no key repeated inside a value before it).
 */
export function lineOfPath(text: string, keys: readonly (string | number)[]): number {
  let at = 0;
  for (const key of keys) {
    if (typeof key === "number") continue;
    const found = text.indexOf(JSON.stringify(key), at);
    if (found < 0) break;
    at = found;
  }
  return text.slice(0, at).split("\n").length;
}

/**
 * The declarations file of the adapter folder a module belongs to: beside the module, or one level
 * up for a variant kept in a subfolder of its parent's folder (`langgraph/multi/index.ts`).
 */
export function declarationFileFor(modulePath: string): string {
  const beside = path.join(path.dirname(modulePath), DECLARATIONS_FILE);
  const above = path.join(path.dirname(path.dirname(modulePath)), DECLARATIONS_FILE);
  return !existsSync(beside) && existsSync(above) && existsSync(path.join(path.dirname(path.dirname(modulePath)), "index.ts")) ? above : beside;
}

/** Every declaration in a file, by adapter name (an empty map when there is no file). */
export function readDeclarations(file: string): Map<string, WireDeclaration> {
  let text: string;
  try {
    const kind = nonRegularKind(statSync(file));
    if (kind) throw new DeclarationError(file, 1, "", `is ${kind}, not a JSON file`);
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    if (err instanceof DeclarationError) throw err;
    throw new DeclarationError(file, 1, "", `cannot be read (${(err as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DeclarationError(file, 1, "", `is not JSON (${(err as Error).message})`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new DeclarationError(file, 1, "", "must be an object keyed by adapter name");
  const out = new Map<string, WireDeclaration>();
  for (const [name, entry] of Object.entries(data)) {
    if (name === "$comment") continue;
    const parsed = WireDeclarationSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const keys = [name, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
      throw new DeclarationError(file, lineOfPath(text, keys), keys.join("."), issue.message);
    }
    out.set(name, parsed.data);
  }
  return out;
}

/** The declaration an adapter is held to: its entry in the file beside its module, or the baseline's. */
export function declarationFor(adapter: string, modulePath: string): WireDeclaration {
  return readDeclarations(declarationFileFor(modulePath)).get(adapter) ?? BASELINE_DECLARATION;
}
