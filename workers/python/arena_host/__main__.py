"""`python3 -m arena_host`: the entry point the orchestrator starts (supervisor/python-host.ts)."""
import sys

if sys.version_info < (3, 11):
    sys.stderr.write(f"arena_host needs Python >= 3.11, this is {sys.version.split()[0]}\n")
    sys.exit(78)

from .host import main  # noqa: E402  (after the version check, which must run on any Python)

main()
