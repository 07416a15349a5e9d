/**
 * The one known way the TypeScript and Python tools part: `repr()` of a string escapes the
 * characters Python's Unicode database calls unprintable. CPython 3.11 ships Unicode 14.0; V8's
 * tables are newer, so a character assigned since 14.0 (the emoji U+1F6DC, say) is printed as is
 * by py-semantics' reprString and escaped (`\U0001f6dc`) by CPython 3.11. This finds exactly those
 * differences; the parity suite asks CPython to confirm every such code point is unassigned there.
 */

const ESCAPE = /^\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|U([0-9a-f]{8}))/;

/**
 * The code points that Python escaped where TypeScript wrote them raw, if that is the *only*
 * difference between the two answers; undefined when they differ in any other way.
 */
export function escapedOnlyInPython(ts: string, py: string): number[] | undefined {
  const a = Array.from(ts);
  const found: number[] = [];
  let j = 0;
  for (const ch of a) {
    const cp = ch.codePointAt(0)!;
    if (py.codePointAt(j) === cp) {
      j += ch.length;
      continue;
    }
    const m = ESCAPE.exec(py.slice(j, j + 10));
    if (!m || Number.parseInt(m[1] ?? m[2] ?? m[3]!, 16) !== cp) return undefined;
    found.push(cp);
    j += m[0].length;
  }
  return j === py.length ? found : undefined;
}
