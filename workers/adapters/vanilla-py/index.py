"""`vanilla-py`: the hand-rolled baseline in Python, stdlib only (urllib.request, json), the twin of
the TS `vanilla` on the same wire (see README.md). Exports what `vanilla-py-multi` (multi.py) builds on."""
import sys

from .model import LlmHttpError, chat_completion, request_body  # noqa: F401  (the variant's pieces)
from .runner import LegUsage, assistant_turn, build_runner, resume_messages, run_leg  # noqa: F401
from .tools import arena_tools, tool_message  # noqa: F401

name = "vanilla-py"
# No package: the interpreter's standard library is the client, so its version is the library's.
lib_version = "python-stdlib {}.{}.{}".format(*sys.version_info[:3])


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)
