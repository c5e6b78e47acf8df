"""Shared tables across server processes: ``hub`` (where a table's messages go: the
:class:`~riverboat.table.live.across.hub.Hub` interface and the one-process
``LocalHub``), ``redis_hub`` (``RedisHub``: several processes over Redis),
``connections`` (a player's connection on either side of it, and the holder's
outbox), ``lease`` (which process runs a table's clock, in Redis) and ``live_state``
(the table's state in the database, fenced by the lease's token).
"""
