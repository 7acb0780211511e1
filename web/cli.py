"""``automa-vision serve``: the table-side web page.

    automa-vision serve [--demo | --camera N | --video FILE] [--host H | --lan] [--port P] [--data DIR]
"""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from .services import Source


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="serve the table-side web page and the calibration wizard",
                              description=__doc__.splitlines()[0])
    source = p.add_mutually_exclusive_group()
    source.add_argument("--demo", action="store_true", help="play on the bundled demo replay (default)")
    source.add_argument("--camera", type=int, metavar="N", help="webcam index (0 is the first camera)")
    source.add_argument("--video", type=Path, metavar="FILE", help="a video file, image or image folder")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this computer only; any other address "
                            "serves browsers paired as with --lan)")
    where.add_argument("--lan", action="store_true",
                       help="serve the phones at the table: listen on this computer's local network address, "
                            "to browsers paired by a QR code or a short code (made anew each run)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--data", type=Path, default=Path("data/web"), help="sessions and profiles folder (default data/web)")
    p.set_defaults(func=run)


def loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this computer alone."""
    return host in ("localhost", "::1") or host.startswith("127.")


def source_of(args: argparse.Namespace) -> Source:
    if args.camera is not None:
        return Source("camera", str(args.camera))
    if args.video is not None:
        return Source("video", str(args.video))
    return Source("demo")


def run(args: argparse.Namespace) -> int:
    from .app import WebConfig, create_app  # Flask and OpenCV load only when serving

    if args.video is not None and not args.video.exists():
        print(f"automa-vision serve: {args.video} does not exist", file=sys.stderr)
        return 2
    if not 1 <= args.port <= 65535:
        print(f"automa-vision serve: port must be 1-65535, got {args.port}", file=sys.stderr)
        return 2
    pairing = None
    if args.lan or not loopback(args.host):
        # Any address other people's devices can reach serves paired browsers only.
        from .lan import NoNetwork, Pairing, lan_address
        try:
            pairing = Pairing(lan_address() if args.lan else args.host, args.port)
        except NoNetwork as exc:
            print(f"automa-vision serve --lan: {exc}", file=sys.stderr)
            return 2
    host = args.host if pairing is None else pairing.host
    app = create_app(WebConfig(data_dir=args.data, source=source_of(args), pairing=pairing))
    print(f"Automa Vision on http://{host}:{args.port}/  (source: {source_of(args).describe()})")
    if pairing is not None:
        print(pairing.console())
    # the console keeps what the players need (the address, the pairing code), not a line per request
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app.run(host=host, port=args.port, threaded=True, use_reloader=False)
    return 0
