"""The RL tests need the ``rl`` extra: each module asks for its libraries with
``pytest.importorskip``, so a machine without them skips, naming the missing one."""
