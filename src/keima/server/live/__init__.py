"""Live updates between the processes and the pages: the publish/subscribe interface (in one process, or over
Redis), the sockets that only tell, the bell that rings a player's pages, and the cluster's job queue.
"""

from __future__ import annotations

from keima.server.live import bell
from keima.server.live.bell import NOTICE, Bell
from keima.server.live.jobs import (
    HEARTBEAT_S,
    HEARTBEAT_TTL_S,
    QUEUE,
    WORKER_KEY,
    JobQueue,
    job_timeout,
    redis_settings,
)
from keima.server.live.notice_socket import serve_notices
from keima.server.live.pubsub import PLAYER_PREFIX, LocalPubSub, PubSub, player_channel
from keima.server.live.redis_pubsub import RedisPubSub

__all__ = [
    "Bell", "HEARTBEAT_S", "HEARTBEAT_TTL_S", "JobQueue", "LocalPubSub", "NOTICE", "PLAYER_PREFIX",
    "PubSub", "QUEUE", "RedisPubSub", "WORKER_KEY", "bell", "job_timeout", "player_channel",
    "redis_settings", "serve_notices"
]
