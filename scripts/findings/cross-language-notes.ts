/**
 * Why the two editions of one framework differ, per framework (the TypeScript entry's name): a
 * default, a prompt or a bug, each checked against the wire of `pnpm findings` and the adapters'
 * READMEs (workers/adapters/<name>/README.md and <name>-py/README.md).
 */
export const CROSS_LANGUAGE_NOTES: Readonly<Record<string, string>> = {
  vanilla:
    "none on the wire: `vanilla-py` writes its JSON as `JSON.stringify` does (`wire_json.py`), so all 269 request bodies are byte-equal (tests/adapters/vanilla-py.test.ts); a plain `json.dumps` would add 21,807 bytes of separators (4.2%) and no billed token. Outside the body: urllib's default headers and one connection per request",
  "vanilla-multi": "the same pipeline; its 318 request bodies are byte-equal to `vanilla-multi`'s",
};
