"""Tests of ``keima.server.storage``."""
