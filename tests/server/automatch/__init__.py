"""Tests of ``keima.server.automatch``."""
