"""Tournaments: players, pairing, standings and the files of OpenGotha, the FFG and the EGD."""
