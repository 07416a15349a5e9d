"""Batch runner for the parity vectors: `python3 -m arena_tools [--echo-boundary] [corpus.json]` (run from workers/python).

Reads one JSON object per line on stdin, `{"name": ..., "arguments": ...}`, and writes one line
per call, `{"out": <the tool's result>, "pause_request": <pause_request_of(arguments)>}`, in order. A line that is not such an object is answered
`{"bad_line": <why>}` instead, so the two sides stay aligned line for line. ASCII-only output:
lone surrogates survive the trip as \\u escapes. `--echo-boundary` stands in for the boundary
arena's policy fixture with `ECHO_BOUNDARY`, which the parity suite gives the TypeScript side too.
"""

from __future__ import annotations

import json
import sys

from . import ToolEnv, dispatch, load_corpus, pause_request_of


def echo_boundary(action: str) -> str:
    return f"fixture saw {action}"


def main(argv: list[str]) -> int:
    echo = "--echo-boundary" in argv
    rest = [a for a in argv if a != "--echo-boundary"]
    env = ToolEnv(load_corpus(rest[0]) if rest else load_corpus(), echo_boundary if echo else None)
    out = sys.stdout
    for raw in sys.stdin.buffer:
        try:
            call = json.loads(raw.decode("utf-8", "surrogatepass"))
            args = call["arguments"]
            reply = {"out": dispatch(call["name"], args, env), "pause_request": pause_request_of(args)}
        except (ValueError, KeyError, TypeError) as err:
            reply = {"bad_line": str(err)}
        out.write(json.dumps(reply) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
