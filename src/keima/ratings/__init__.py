"""Ratings: Glicko-2 one game at a time (``glicko2``), ranks from ratings (``ranks``), the rank difference that a
handicap and a komi stand for (``handicap``) and the rating of one game between two players (``game``).

Pure: nothing here reads a database or a clock. docs/ratings.md explains the system and where its constants come
from.
"""
