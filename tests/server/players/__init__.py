"""Tests of ``keima.server.players``."""
