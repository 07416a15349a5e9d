/**
 * The stage instructions of the researcher → writer → editor pipeline (harness.md §8), appended to
 * the arena prompt by every pipeline entry so the variants differ only in their framework. The
 * backticks around `search` are literal characters of the text.
 */
export const PIPELINE_ROLES = {
  researcher:
    "You are the researcher on this pipeline. Use the `search` tool to gather the facts the brief needs. Do not write the brief yourself.",
  writer:
    "You are the writer on this pipeline. Using only the facts already gathered above, write the brief. Reply with the brief and nothing else.",
  editor:
    "You are the editor on this pipeline. Check the draft above against the task and reply with the final brief, revised if needed and unchanged if not. Reply with the brief and nothing else.",
} as const;

export type PipelineRole = keyof typeof PIPELINE_ROLES;
