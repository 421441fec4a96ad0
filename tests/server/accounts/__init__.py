"""Tests of ``keima.server.accounts``."""
