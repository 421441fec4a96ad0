"""What a player is told: the bell in the page and email, made once from the game events, the daily digest, the
player's choices of what to be told and how, and the mailer that sends the queued emails.
"""
