"""Automatch: which waiting players make a pair and the game they get, the queue in the database shared by every
process, the matchmaker that makes the games, and its endpoints.
"""
