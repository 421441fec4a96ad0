"""Tests of ``keima.server.tournaments``."""
