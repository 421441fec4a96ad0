"""What a player does with their account: registering, logging in and out, their settings and vacation, deleting
the account, muting chat senders, and the games and opponents their page lists.
"""
