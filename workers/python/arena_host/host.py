"""The host's life cycle, as workers/host.ts runs it: ready → build → built/build_failed →
run/resume → result/suspended/error … → shutdown (or the channel closing).

Messages are handled strictly one at a time: a runner serves one leg at a time. A message that
is not valid protocol is answered with an error `log` and otherwise ignored, as on the Node
side; a leg always answers its job, even a run before any build.

Nothing here imports asyncio: an adapter's coroutines are awaited through settle.py, which makes
the event loop only once an adapter needs it.
"""
import json
import os
import sys
import time

from arena_tools.dispatch import ToolEnv, dispatch
from arena_tools.search import CorpusError, load_corpus as load_search_corpus

from . import loader
from .bridge import open_bridge
from .causes import cause_chain
from .channel import Channel, ChannelError
from .schema import AGENT_RESULT, TO_WORKER, Invalid
from .settle import Settler
from .strict_json import NotJsonError, assert_strict_json


# EX_USAGE: the host was started the wrong way.
EXIT_NO_CHANNEL = 64


class Toolbox:
    """contract/adapter.ts's Toolbox: `dispatch(name, args)` runs one canonical tool and returns the
    string the model must read, unmodified. `args` is the argument text the model sent (or a value)."""

    def __init__(self, corpus):
        self._env = ToolEnv(corpus)

    def dispatch(self, name, args):
        return dispatch(name, args, self._env)


class BuildContext:
    """What a runner is handed beside the arena and the config: `tools`, the toolbox.

    `corpus_path` is the search corpus the canonical tools read (checked readable at build,
    so an unreadable corpus answers the build instead of failing every leg later).
    """

    def __init__(self, corpus_path, corpus):
        self.corpus_path = corpus_path
        self.tools = Toolbox(corpus)


def load_corpus(path):
    """The corpus as the Node host checks it: a JSON array of {title: str, text: str}."""
    try:
        return load_search_corpus(path)
    except CorpusError as err:
        raise ValueError(str(err)) from err


class Host:
    def __init__(self, channel):
        self.channel = channel
        self.loaded = None  # (module path, adapter module, lib_version)
        self.runners = {}
        self.corpora = {}
        self.settler = Settler()

    def send(self, message):
        self.channel.send(message)

    def log(self, level, message):
        self.send({"type": "log", "level": level, "message": message})

    def settle(self, value):
        return self.settler.settle(value)

    def serve(self):
        for line in self.channel.lines():
            try:
                message = TO_WORKER.parse(json.loads(line))
            except (ValueError, Invalid) as err:
                self.log("error", f"invalid message from orchestrator: {err}")
                continue
            try:
                if message["type"] == "shutdown":
                    return
                self.handle(message)
            except Exception as err:  # noqa: BLE001  (the host must outlive its own bug)
                self.log("error", loader.describe(err))

    def handle(self, message):
        kind = message["type"]
        if kind == "build":
            return self.build(message)
        if kind == "run":
            return self.leg(message["job"], lambda: self.runner(message).run(message["item"]))
        return self.leg(message["job"], lambda: self.resume(message))

    def resume(self, message):
        runner = self.runner(message)
        if not callable(getattr(runner, "resume", None)):
            return {"error": "adapter suspended but does not implement resume()"}
        return runner.resume(message["item"], message["state"], message["decision"])

    def runner(self, message):
        # Keyed by seat as the Node host keys them; this host runs every seat's legs one at a time
        # (the orchestrator gives a Python worker one seat), so seats here are names, not concurrency.
        key = (message["arena"], message["seat"])
        if key not in self.runners:
            raise RuntimeError(f"protocol violation: run before a successful build of arena {message['arena']}")
        return self.runners[key]

    def adapter(self, path):
        if self.loaded is not None:
            if self.loaded[0] == path:
                return self.loaded[1:]
            reason = f"load failed: this worker serves {self.loaded[0]}, not {path}"
            raise loader.LoadFailed("load_failed", reason, self.loaded[2], "")
        module, version = loader.load(path)
        self.loaded = (path, module, version)
        return module, version

    def build(self, message):
        arena = message["arena"]["id"]
        seat = message["seat"]
        try:
            module, version = self.adapter(message["adapter"]["module"])
        except loader.LoadFailed as failed:
            return self.send({"type": "build_failed", "arena": arena, "seat": seat, "kind": failed.kind, "reason": failed.reason,
                              "libVersion": failed.lib_version, "traceback": failed.trace})
        try:
            path = message["corpusPath"]
            if path not in self.corpora:
                self.corpora[path] = load_corpus(path)
            ctx = BuildContext(path, self.corpora[path])
            runner = self.settle(module.build(message["arena"], message["config"], ctx))
            self.settler.prepare(runner)
        except Exception as err:  # noqa: BLE001
            stub = isinstance(err, NotImplementedError)
            reason = f"stub adapter: {err}" if stub else f"build failed: {loader.describe(err)}"
            return self.send({"type": "build_failed", "arena": arena, "seat": seat, "kind": "stub" if stub else "build_failed",
                              "reason": reason, "libVersion": version, "traceback": loader.trace()})
        self.runners[(arena, seat)] = runner
        self.send({
            "type": "built", "arena": arena, "seat": seat, "libVersion": version,
            "resumable": callable(getattr(runner, "resume", None)),
            "delegates": [str(d) for d in getattr(module, "delegates", ())],
            "wireExceptions": [{"key": e["key"], "reason": e["reason"]} for e in getattr(module, "wire_exceptions", ())],
        })

    def leg(self, job, call):
        started = time.perf_counter()
        try:
            raw = self.settle(call())
        except Exception as err:  # noqa: BLE001  (the adapter's failure is data, never the host's end)
            # Timed before the traceback is formatted: the first failure imports `traceback` (loader.trace).
            seconds = time.perf_counter() - started
            return self.send({"type": "error", "job": job, "error": loader.describe(err), "traceback": loader.trace(),
                              "causes": cause_chain(err), "adapterSeconds": seconds})
        seconds = time.perf_counter() - started
        try:
            result = AGENT_RESULT.parse({} if raw is None else raw)
        except Invalid as err:
            return self.send({"type": "error", "job": job, "error": f"InvalidResult: {err}", "traceback": "", "adapterSeconds": seconds})
        if result["suspended"]:
            try:
                assert_strict_json(result["resume_state"])
            except NotJsonError as err:
                return self.send({"type": "error", "job": job, "traceback": "", "adapterSeconds": seconds,
                                  "error": f"resume_state is not JSON-serialisable, so nothing could survive a restart: {err}"})
        try:
            # raw and resume_state may hold what JSON cannot carry (checked above only when suspended).
            self.send({"type": "suspended" if result["suspended"] else "result", "job": job, "result": result, "adapterSeconds": seconds})
        except (TypeError, ValueError) as err:
            self.send({"type": "error", "job": job, "error": f"InvalidResult: not JSON: {err}", "traceback": "", "adapterSeconds": seconds})


def main():
    # Before ready: a sealed worker without its bridge must fail the start, not its first leg.
    open_bridge()
    try:
        channel = Channel()
    except ChannelError as err:
        # Started by hand, or by something other than the orchestrator: one line, no traceback.
        sys.stderr.write(f"arena_host: {err}\n")
        sys.exit(EXIT_NO_CHANNEL)
    host = Host(channel)
    host.send({"type": "ready", "pid": os.getpid()})
    host.serve()
    sys.stdout.flush()
    # The channel closed or shutdown came: exit 0 at once, as the Node host does (no thread,
    # bridge or framework task may keep the process alive).
    os._exit(0)
