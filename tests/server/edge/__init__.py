"""Tests of ``keima.server.edge``."""
