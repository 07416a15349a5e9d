/**
 * Cutting text short for a one-line message: at most `max` characters, the last of them `…` when
 * anything was cut, so a reader can tell a shortened text from a short one.
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** All of `text` on one line (every run of whitespace one space), then clipped. */
export function clipOneLine(text: string, max: number): string {
  return clip(text.replace(/\s+/g, " ").trim(), max);
}
