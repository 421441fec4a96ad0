"""Tests of ``keima.server.games``."""
