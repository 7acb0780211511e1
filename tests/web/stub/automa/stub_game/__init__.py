"""Countdown, the stub game of tests/web/test_games.py."""
