"""Loading the one adapter a worker serves, by the module path the build names.

An adapter module mirrors contract/adapter.ts with module-level names:

- `name` (str) and `lib_version` (`"<package> <version>"`, or a function returning it);
- optionally `delegates` (sub-agent tool names) and `wire_exceptions` (`[{"key", "reason"}]`);
- `build(arena, config, ctx)` returning a runner with `run(item)` and optionally
  `resume(item, state, decision)`; any of them may be a coroutine function.

`arena`, `config` and `item` are the protocol's objects as dicts, keys as on the wire.

The module's folder is loaded as the package `arena_adapter`, so the adapter's own files import
each other relatively (`from .runner import build_runner`) and their names (`tools`, `model`)
never shadow a framework's modules; `ctx.tools.dispatch` and `arena_tools` are the canonical tools.
"""
import importlib
import os
import sys
import types

PACKAGE = "arena_adapter"

# Python's names for "the framework is not installed", as Node's ERR_MODULE_NOT_FOUND is.
NOT_INSTALLED = (ModuleNotFoundError,)


class LoadFailed(Exception):
    def __init__(self, kind, reason, lib_version, trace):
        super().__init__(reason)
        self.kind, self.reason, self.lib_version, self.trace = kind, reason, lib_version, trace


def describe(err):
    return f"{type(err).__name__}: {err}"


def trace():
    """The exception being handled, formatted. `traceback` is imported by the first failure that
    needs it, not by every start: it brings linecache, tokenize and textwrap."""
    import traceback  # noqa: PLC0415

    return traceback.format_exc()


def load(path):
    """The adapter module at `path` and its lib_version, or raise LoadFailed."""
    try:
        # os.path, not pathlib: pathlib would be the start's only reason to import urllib.parse.
        stem, suffix = os.path.splitext(os.path.basename(path))
        if suffix != ".py" or not os.path.isfile(path):
            raise FileNotFoundError(f"{path} is not a Python module")
        package = types.ModuleType(PACKAGE)
        package.__path__ = [os.path.dirname(path) or "."]
        sys.modules[PACKAGE] = package
        module = importlib.import_module(f"{PACKAGE}.{stem}")
        if not callable(getattr(module, "build", None)):
            raise ImportError(f"{path} has no build() function")
    except BaseException as err:  # noqa: BLE001  (a module may raise anything at import)
        if isinstance(err, (SystemExit, KeyboardInterrupt)):
            raise
        formatted = trace()
        if isinstance(err, NOT_INSTALLED) or (isinstance(err, FileNotFoundError)):
            raise LoadFailed("not_installed", f"library not installed: {describe(err)}", "(not installed)", formatted) from err
        raise LoadFailed("load_failed", f"load failed: {describe(err)}", "unknown", formatted) from err
    version = getattr(module, "lib_version", "unknown")
    try:
        version = version() if callable(version) else version
    except Exception as err:  # noqa: BLE001
        version = f"unknown ({err})"
    return module, str(version)
