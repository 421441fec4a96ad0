"""Tests of keima.gtp: the GTP engine, controller and referee."""
