"""Games: a game held by the server (the referee's game, its clock, seats, chat), the one write path that changes it
(the game service) and its events, the games in memory, the state view sent to clients, the computer seats,
the timers and the scheduler, conditional moves, and the routes and the socket of a game.
"""
