"""Camera frame -> board state. The stages every game's reader shares are this package's
modules (``vision.reader`` lists them in a frame's order and defines what a reader is);
each game's reader is a subpackage, ``vision/barrage/`` for Barrage."""
