"""Table set-up: printable sheets, lens calibration, board registration, profiles."""
