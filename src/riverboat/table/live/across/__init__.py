"""Shared tables across server processes: ``lease`` (which process runs a table's
clock, in Redis) and ``live_state`` (the table's state in the database, fenced by the
lease's token).
"""
