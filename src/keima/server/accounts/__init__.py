"""Who a player is: guests and registered accounts, their sessions, passwords and names, the rate limits on what
creates or guesses, the muted chat senders, a player's stored settings (time zone, vacation days, email, language),
and the helpers that tell which player and which seat a request comes from.
"""
