/**
 * Secrets never reach a file the harness writes: the configured API key, and anything shaped like
 * a provider key, are replaced before records, journals, logs and scorecards hit the disk. That
 * includes text that came back from the provider, which may echo the key in an error message.
 */

export const REDACTED = "[REDACTED]";

/**
 * Key shapes of the common providers (OpenAI `sk-…`/`sk-proj-…`, Anthropic `sk-ant-…`, Google
 * `AIza…`, Groq `gsk_…`, OpenRouter `sk-or-…`) and any bearer token. Long enough that ordinary
 * prose does not match.
 */
const KEY_SHAPES: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\bgsk_[A-Za-z0-9]{20,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\b(Bearer\s+)(?!\[REDACTED\])[A-Za-z0-9._~+/=-]{12,}/gi,
];

/** Values that are never secrets (placeholders the harness itself uses). */
const NOT_SECRET = new Set(["", "mock-key", "sk-replace-me"]);

let configured: readonly string[] = [];

/** Register the run's real secrets (the API key) so they are redacted wherever they appear. */
export function registerSecrets(secrets: readonly string[]): void {
  configured = [...new Set(secrets.filter((s) => !NOT_SECRET.has(s) && s.length >= 4))].sort((a, b) => b.length - a.length);
}

export function redactSecrets(text: string, secrets: readonly string[] = configured): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  for (const shape of KEY_SHAPES) {
    out = out.replace(shape, (match, prefix?: string) => (typeof prefix === "string" && /^Bearer/i.test(prefix) ? `${prefix}${REDACTED}` : REDACTED));
  }
  return out;
}
