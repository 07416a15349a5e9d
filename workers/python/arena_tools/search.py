"""The `search` tool (shared spec tools.md section 5): token-set overlap over a fixed corpus."""

from __future__ import annotations

import json
import os
import re
from collections import namedtuple

TYPE_CHECKING = False  # typing is for checkers only (definitions.py says why)
if TYPE_CHECKING:
    from pathlib import Path

_REPO = os.path.realpath(__file__)
for _ in range(4):  # arena_tools/search.py → arena_tools → python → workers → the repository
    _REPO = os.path.dirname(_REPO)
DEFAULT_CORPUS_PATH = os.path.join(_REPO, "arenas", "corpus.json")
"""The repository's arenas/corpus.json, the file the TypeScript tool reads by default (a str: no
pathlib at start, see definitions.py)."""

_WORD = re.compile(r"[a-z0-9]+")


class CorpusError(Exception):
    """A corpus file that cannot be read or is not an array of {title, text}; `file` names it."""

    def __init__(self, file: str, reason: str) -> None:
        super().__init__(f"{file}: {reason}")
        self.file = file


# A plain namedtuple, not typing.NamedTuple: `typing` would cost every worker's start.
Entry = namedtuple("Entry", ["title", "text", "words"])
Entry.__doc__ = "One corpus document (title: str, text: str) and its token set (words: frozenset[str])."


def _tokens(s: str) -> frozenset[str]:
    return frozenset(_WORD.findall(s.lower()))


def load_corpus(file: str | Path = DEFAULT_CORPUS_PATH) -> tuple[Entry, ...]:
    """Read and check a corpus once; each document is tokenised here, not on every query."""
    name = str(file)
    if not os.path.isfile(file):
        raise CorpusError(name, "not a regular file")
    try:
        with open(file, encoding="utf-8") as f:
            data = json.loads(f.read())
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise CorpusError(name, f"cannot read: {err}") from err
    if not isinstance(data, list):
        raise CorpusError(name, "expected an array of {title: string, text: string}")
    entries = []
    for i, doc in enumerate(data):
        if not (isinstance(doc, dict) and isinstance(doc.get("title"), str) and isinstance(doc.get("text"), str)):
            raise CorpusError(name, f"expected an array of {{title: string, text: string}}; entry {i} is not")
        entries.append(Entry(doc["title"], doc["text"], _tokens(f"{doc['title']} {doc['text']}")))
    return tuple(entries)


def search(corpus: tuple[Entry, ...], query: str, k: int = 3) -> str:
    q = _tokens(query)
    if not q:
        return "No results."
    scored = [(len(q & doc.words), doc) for doc in corpus]
    # sorted is stable: ties keep corpus order.
    hits = sorted((s for s in scored if s[0] > 0), key=lambda s: -s[0])[:k]
    if not hits:
        return "No results."
    return "\n\n".join(f"[{doc.title}] {doc.text}" for _, doc in hits)
