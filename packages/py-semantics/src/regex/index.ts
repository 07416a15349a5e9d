/**
 * Python `re.search(pattern, text, re.IGNORECASE)` in JS (arena-format.md §5.6). Patterns come
 * from data files, so they are parsed with Python's grammar (what Python rejects is rejected
 * here) and translated to `iu`-mode JS with Python's Unicode-aware classes and anchors.
 */
import { PyRegexError } from "./ast.ts";
import { emit } from "./emit.ts";
import { parsePyRegex } from "./parse.ts";

export { PyRegexError };

/** The JS source (for flags `iu`) equivalent to a Python pattern. Throws {@link PyRegexError}. */
export function translatePyRegex(pattern: string): string {
  const { node, caseMode } = parsePyRegex(pattern);
  return emit(node, caseMode);
}

/** Compile a Python pattern (IGNORECASE) to a JS RegExp with flags `iu`. Throws {@link PyRegexError}. */
export function compilePyRegex(pattern: string): RegExp {
  const source = translatePyRegex(pattern);
  try {
    return new RegExp(source, "iu");
  } catch (e) {
    // The translation is meant to be valid JS for every pattern the parser accepts; this catches
    // what is left (e.g. a repeat count beyond V8's limit) so callers see one error type.
    throw new PyRegexError(`cannot be expressed as a JS regex (${(e as Error).message})`, pattern);
  }
}

// Every item of an arena repeats the same few patterns; a bounded cache avoids re-parsing them.
const CACHE_LIMIT = 256;
const cache = new Map<string, RegExp | PyRegexError>();

function cachedCompile(pattern: string): RegExp | PyRegexError {
  let entry = cache.get(pattern);
  if (entry === undefined) {
    try {
      entry = compilePyRegex(pattern);
    } catch (e) {
      if (!(e instanceof PyRegexError)) throw e;
      entry = e;
    }
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, entry);
  }
  return entry;
}

/** `re.search(pattern, text, re.IGNORECASE) is not None`. Throws {@link PyRegexError}. */
export function pySearch(pattern: string, text: string): boolean {
  const re = cachedCompile(pattern);
  if (re instanceof PyRegexError) throw re;
  return re.test(text);
}
