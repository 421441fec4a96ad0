"""Tests of ``keima.server.notifications``."""
