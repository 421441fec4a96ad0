"""Reviews: a record's move tree replayed through the referee with the estimate at any node, the count of any
position step by step, and the bot's reviews of finished games and uploaded records.
"""
