/**
 * What each framework's pinned version sends that the mechanical parts of seed 000's reproduction
 * (scripts/findings/seed-000.ts) do not name by themselves, and why ours differs from the study's
 * figure. Each note is checked against the wire of `pnpm findings`; the adapters' READMEs hold the
 * evidence.
 */
export const SEED_000_NOTES: Readonly<Record<string, string>> = {};
