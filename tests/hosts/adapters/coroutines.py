"""A stdlib adapter that is asynchronous three ways, chosen by the arena's id: `async def run`
(the host makes its loop at build), a plain `run` that returns a coroutine (the host makes it at
the first awaitable), or a `build` that returns a coroutine. Each leg answers with which loop ran it and what the host had imported
when this module was loaded (tests/hosts/python-lazy-loop.test.ts). It imports asyncio only
inside its coroutines, so what the host imports is told apart from what the adapter does."""
import json
import sys

name = "coroutines_py"
lib_version = "stdlib"
ASYNCIO_AT_LOAD = "asyncio" in sys.modules


async def answer(item):
    import asyncio

    await asyncio.sleep(0)
    loop = asyncio.get_running_loop()
    return {"output_text": json.dumps({"loop": id(loop), "input": item["input"], "asyncio_at_load": ASYNCIO_AT_LOAD})}


class AsyncRunner:
    async def run(self, item):
        return await answer(item)


class PlainRunner:
    def run(self, item):
        return answer(item)


async def built_later():
    return AsyncRunner()


def build(arena, config, ctx):
    if arena["id"] == "async_build":
        return built_later()
    return AsyncRunner() if arena["id"] == "async_run" else PlainRunner()
