"""The Python worker host: the same protocol, life cycle and strictness as workers/host.ts.

It loads one adapter module by path, builds a runner for each arena the orchestrator asks for,
and runs the legs it is sent, one at a time. It speaks only over the channel the orchestrator
opened (channel.py); whatever the adapter prints goes to the worker's log. The core imports
nothing outside the standard library.
"""
