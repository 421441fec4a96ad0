"""Tests of ``keima.server.reviews``."""
