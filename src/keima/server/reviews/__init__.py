"""Reviews: a record's move tree replayed through the referee with the estimate at any node, the count of any
position step by step, and the bot's reviews of finished games and uploaded records.
"""

from __future__ import annotations

from keima.server.reviews import bot_review_routes, positions, record_review
from keima.server.reviews.bot_reviews import CHUNK_SECONDS, ReviewService, stored_game
from keima.server.reviews.record_review import REVIEW_MAX_BODY

__all__ = [
    "CHUNK_SECONDS", "REVIEW_MAX_BODY", "ReviewService", "bot_review_routes", "positions", "record_review",
    "stored_game"
]
