"""Positions that tests of several packages read (the rules' facts and the seat's manners on the same board), as
ASCII diagrams: ``X`` Black, ``O`` White, ``.`` empty, top row first."""

from __future__ import annotations

# A 9x9 board whose top-left corner is Black's 9 points and whose lower left is a seki: Black's chain
# E4-A3-E3-D2-E2-C1-E1 and White's A2-B2-A1 share the liberties C2 and B1, where neither side can play without putting
# itself in atari (no capturing race is open). White leads by 32.5 with komi 7.5.
SEKI = """
...XO.O.O
...XOO.OO
...XO.O.O
XXXXOOOOO
OOOOO.O.O
OOOOXOO.O
XXXXXO.OO
OO.XXOO.O
O.XXXO.O.
"""
