"""Tests of ``keima.server.lobby``."""
