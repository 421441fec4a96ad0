"""Ratings from rated games: the durable subscriber that rates each finished rated game (the mathematics is
``keima.ratings``), the players' records of wins and losses, the bots as rated players, and the endpoints of a
player's rank, rating and history.
"""
