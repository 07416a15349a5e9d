"""What may cross a restart, as workers/strict-json.ts defines it: only None, booleans, finite
numbers, strings, lists and dicts with string keys.

`json.dumps` would quietly turn a tuple into a list, an int key into a string and NaN into a
bare `NaN` no JSON parser takes; an adapter handing back a live object must get a clear error
instead of a state that changed on the way. One thing goes further than the Node check, because
only Python can hold it: an int no double holds exactly (2**53 + 1) would arrive rounded in the
orchestrator, so it is refused too; 2**53 itself crosses intact and passes, as it does in Node.
"""
import math


class NotJsonError(Exception):
    pass


def assert_strict_json(value, path="resume_state", seen=None):
    seen = set() if seen is None else seen
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        if abs(value) > 2**53 and (abs(value) >= 2**1024 or float(value) != value):
            raise NotJsonError(f"{path} is {value}, which JSON cannot carry exactly")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise NotJsonError(f"{path} is {value}, which JSON cannot represent")
        return
    if type(value) not in (list, dict):
        raise NotJsonError(f"{path} is a {type(value).__name__}, not a list or a plain dict")
    if id(value) in seen:
        raise NotJsonError(f"{path} is a circular reference")
    seen.add(id(value))
    if isinstance(value, list):
        for i, v in enumerate(value):
            assert_strict_json(v, f"{path}[{i}]", seen)
    else:
        for k, v in value.items():
            if not isinstance(k, str):
                raise NotJsonError(f"{path} has a {type(k).__name__} key {k!r}; JSON keys are strings")
            assert_strict_json(v, f"{path}.{k}", seen)
    seen.discard(id(value))
