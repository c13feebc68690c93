"""The rules core's solver and verifier as they were before the speed work of issue 12.

``melds.py`` and ``knock.py`` here are frozen copies of ``scorekeeper/melds.py``
and ``scorekeeper/knock.py`` at that point (only their imports changed): they
are the same-run reference of ``bench/melds.py`` (so the speedup is shown
with the machine's load falling on both alike) and the exact-output oracle of
``tests/test_fast_paths.py`` (the fast paths must give the very same
results, tie-breaking included). They are never imported by the package.
"""
