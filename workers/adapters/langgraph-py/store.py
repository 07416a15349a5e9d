"""Where a run's checkpoints live, as in the TS twin. On an arena that pauses, LangGraph's
`SqliteSaver` writes one database per run (thread) inside the harness-owned `checkpointDir` and
nowhere else; at the end of every leg the file leaves WAL mode and the connection closes, so when
the harness kills the worker at a pause the run is one complete file. Arenas without a pause (and
a pause arena run without a checkpoint directory) use the in-memory saver: nothing is written.
"""
import json
import os
import re
import sqlite3
import uuid

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

FILE_PATTERN = re.compile(r"^langgraph-[A-Za-z0-9_.-]+\.sqlite$")


def new_thread_id(item_id):
    """A thread id unique per run and safe in a file name."""
    return f"{re.sub(r'[^A-Za-z0-9_.-]', '_', item_id)[:64]}-{uuid.uuid4()}"


class OpenStore:
    def __init__(self, saver, file=None, conn=None):
        self.saver, self.file, self._conn = saver, file, conn

    def close(self):
        if self._conn is None:
            return
        conn, self._conn = self._conn, None
        try:
            # SqliteSaver.setup() switches the file to WAL. Every commit is already on disk; leaving
            # WAL mode folds the log into the database and deletes -wal/-shm, so a paused run is one
            # file (the next open switches back).
            conn.execute("PRAGMA journal_mode=DELETE")
        finally:
            conn.close()


class RunStore:
    def __init__(self, persist):
        # persist: the arena pauses, so runs must be resumable (on disk when the item has a directory).
        self.persist = persist
        # In-memory runs that may still be resumed in this process (no checkpoint directory).
        self.memory = InMemorySaver()

    def _durable(self, directory):
        return self.persist and bool(directory)

    def open(self, thread, directory):
        if not self._durable(directory):
            return OpenStore(self.memory if self.persist else InMemorySaver())
        os.makedirs(directory, exist_ok=True)
        return self._open_file(directory, f"langgraph-{thread}.sqlite")

    def reopen(self, handle, directory):
        """The store a paused run was written to, or a string saying why it cannot be reopened."""
        name = handle["checkpoint_file"]
        if name is None:
            if self._durable(directory) or not self.persist:
                return "the run was kept in memory by another process"
            return OpenStore(self.memory)
        if not self._durable(directory):
            return "this item has no checkpoint directory"
        if not FILE_PATTERN.match(name):
            return f"not a checkpoint file name: {json.dumps(name)}"
        if not os.path.exists(os.path.join(directory, name)):
            return f"checkpoint file {name} is missing"
        return self._open_file(directory, name)

    @staticmethod
    def _open_file(directory, name):
        # The saver guards the connection with its own lock; the ToolNode's threads never touch it.
        conn = sqlite3.connect(os.path.join(directory, name), check_same_thread=False)
        return OpenStore(SqliteSaver(conn), name, conn)


def parse_handle(state):
    """The handle in `resume_state`, or a string saying what is wrong with it."""
    if not isinstance(state, dict):
        return "resume_state is not an object"
    if not isinstance(state.get("thread_id"), str) or not state["thread_id"]:
        return "resume_state has no thread_id"
    if not isinstance(state.get("checkpoint_id"), str):
        return "resume_state has no checkpoint_id"
    if state.get("checkpoint_file") is not None and not isinstance(state.get("checkpoint_file"), str):
        return "resume_state has a bad checkpoint_file"
    return {"thread_id": state["thread_id"], "checkpoint_file": state.get("checkpoint_file"), "checkpoint_id": state["checkpoint_id"]}
