"""Tests of ``keima.server.ratings``."""
