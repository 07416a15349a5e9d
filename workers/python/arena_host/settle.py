"""Awaiting what an adapter hands back, with the event loop made only when an adapter needs one.

Importing asyncio costs a bare interpreter more CPU than the rest of the host together (ssl,
concurrent.futures and logging come with it), and an adapter whose `build` and `run` are plain
functions never needs it. So the host speaks the protocol without asyncio (its message loop is
synchronous: one message at a time) and makes its one loop:

- at build, once the runner exists, if asyncio is already imported (the adapter's framework
  brought it, so the loop costs little more) or the runner's `run` or `resume` is a coroutine
  function: the import and the loop then land in the start, never in a leg's latency;
- else at the first awaitable a call hands back (a plain method returning a coroutine, or an
  awaitable `build`): that call pays for the import once.

Either way there is one loop for the worker's life: a framework's async clients stay bound to it
across legs, as they did when the host made it at start.
"""
import sys
import types
from collections.abc import Awaitable

# CPython's code flags (Include/cpython/code.h, fixed since 3.5): `async def`, and a generator
# made awaitable by `types.coroutine`. Read here because `inspect`, which names them, costs more to
# import than the checks it would replace.
CO_COROUTINE = 0x80
CO_ITERABLE_COROUTINE = 0x100


def is_awaitable(value):
    """What `await` accepts, as inspect.isawaitable decides it."""
    if isinstance(value, Awaitable):  # a coroutine, a future, anything with __await__
        return True
    return isinstance(value, types.GeneratorType) and bool(value.gi_code.co_flags & CO_ITERABLE_COROUTINE)


def is_coroutine_function(fn):
    """An `async def` function or a method bound to one (what `run`/`resume` usually are when async)."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    return isinstance(code, types.CodeType) and bool(code.co_flags & CO_COROUTINE)


class Settler:
    def __init__(self):
        self.loop = None

    def prepare(self, runner):
        """Make the loop now if this runner will need it (see the module's docstring)."""
        if self.loop is None and ("asyncio" in sys.modules or any(is_coroutine_function(getattr(runner, m, None)) for m in ("run", "resume"))):
            self._loop()

    def settle(self, value):
        """The value itself, or what it resolves to when it is awaitable."""
        return self._loop().run_until_complete(value) if is_awaitable(value) else value

    def _loop(self):
        if self.loop is None:
            import asyncio  # noqa: PLC0415  (deferred on purpose: the module's docstring says why)

            self.loop = asyncio.new_event_loop()
        return self.loop
