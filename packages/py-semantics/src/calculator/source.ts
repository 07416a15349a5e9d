/**
 * What `compile()` rejects before parsing: the text must encode as UTF-8 (no lone surrogates, which
 * JSON's `\ud800` can produce) and must not contain NUL.
 */
import { CalcError } from "./errors.ts";

function escapeCodePoint(cp: number): string {
  if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

export function checkSource(source: string): void {
  const cps = Array.from(source, (c) => c.codePointAt(0)!);
  const isSurrogate = (cp: number): boolean => cp >= 0xd800 && cp <= 0xdfff;
  const first = cps.findIndex(isSurrogate);
  if (first >= 0) {
    let end = first;
    while (end < cps.length && isSurrogate(cps[end]!)) end++;
    const where =
      end - first === 1
        ? `character '${escapeCodePoint(cps[first]!)}' in position ${first}`
        : `characters in position ${first}-${end - 1}`;
    throw new CalcError("UnicodeEncodeError", `'utf-8' codec can't encode ${where}: surrogates not allowed`);
  }
  if (source.includes("\0")) throw new CalcError("ValueError", "source code string cannot contain null bytes");
}
