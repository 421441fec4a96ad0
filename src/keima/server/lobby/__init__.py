"""The lobby: open challenges, live and finished games as short summaries, "my games", and the lobby's socket.
"""
