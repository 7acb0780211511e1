"""Phones at the table: ``automa-vision serve --lan`` and its pairing.

By default the server listens on 127.0.0.1, this computer alone. With ``--lan`` it listens on
the computer's address on the local network, and serves nothing to a browser that has not
paired: a pairing token is made for each run of the server, given to the laptop's browser by
the address the console prints, and to each phone by a QR code of that address (shown on the
laptop's ``/lan`` page and in the console) or by a short code typed on the phone. A paired
browser keeps the token in a cookie for that run; the next run makes a new one.

A short code of 6 letters and digits from 31 (no 0/O, 1/I/L) has 887 million values; wrong
codes are counted, and after ``MAX_FAILURES`` in ``FAILURE_WINDOW`` seconds every code is
refused for the rest of the window, so it cannot be guessed on a network in any useful time.
"""
from __future__ import annotations

import hmac
import io
import secrets
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field

import segno
from flask import Flask, Response, jsonify, redirect, render_template, request
from flask_babel import gettext

COOKIE = "automa_vision_pairing"
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
MAX_FAILURES = 10
FAILURE_WINDOW = 60.0
PROBE = ("10.255.255.255", 1)     # any address off this computer: a UDP "connect" only picks the interface


class NoNetwork(RuntimeError):
    """This computer has no address on a local network."""


def lan_address() -> str:
    """The IPv4 address this computer has on its local network: the one its route out uses
    (a UDP socket's connect sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(PROBE)
            address = s.getsockname()[0]
        except OSError as exc:
            raise NoNetwork(f"no local network found ({exc}): connect this computer to the table's Wi-Fi") from None
    if address.startswith("127.") or address == "0.0.0.0":
        raise NoNetwork("no local network found: connect this computer to the table's Wi-Fi")
    return address


@dataclass
class Pairing:
    """One server run's pairing: the token, its short code, and where the server listens."""
    host: str
    port: int
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    code: str = field(default_factory=lambda: "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH)))
    clock: object = time.monotonic
    _failures: deque = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def link(self) -> str:
        """The address that pairs a browser: the QR code's and the console's."""
        return f"{self.base}/pair/{self.token}"

    def paired(self, value: str | None) -> bool:
        return value is not None and hmac.compare_digest(value, self.token)

    def check_code(self, typed: str) -> bool | None:
        """True for the code, False for a wrong one, None while wrong codes are refused unread."""
        with self._lock:
            now = self.clock()
            while self._failures and now - self._failures[0] > FAILURE_WINDOW:
                self._failures.popleft()
            if len(self._failures) >= MAX_FAILURES:
                return None
            if hmac.compare_digest(typed.strip().upper().replace(" ", ""), self.code):
                return True
            self._failures.append(now)
            return False

    def qr(self) -> segno.QRCode:
        return segno.make(self.link, error="m")

    def qr_svg(self) -> str:
        out = io.BytesIO()
        self.qr().save(out, kind="svg", scale=6, border=2, xmldecl=False, svgns=True, title=gettext("Pair this phone"))
        return out.getvalue().decode()

    def console(self) -> str:
        """What the console says: the laptop's link, the QR code, the short code."""
        out = io.StringIO()
        self.qr().terminal(out, compact=True)
        return (f"Phones on this network: scan this code, or open {self.base}/ and type {self.code}\n{out.getvalue()}"
                f"On this computer, open {self.link}")


def install(app: Flask, pairing: Pairing) -> None:
    """Serve only paired browsers: every other request gets the pairing form (or 403 JSON)."""

    @app.before_request
    def _paired_only():
        if request.endpoint in ("lan_pair_link", "lan_pair_code") or pairing.paired(request.cookies.get(COOKIE)):
            return None
        if request.path.startswith(("/api/", "/calibration/api/")) or "/api/" in request.path:
            return jsonify({"error": gettext("pair this browser first: type the code shown on the laptop")}), 403
        return _form(), 403

    def _form(problem: str | None = None, status: int = 403):
        return Response(render_template("pair.html", problem=problem), status=status)

    def _paired(target: str = "/lan"):
        response = redirect(target)
        response.set_cookie(COOKIE, pairing.token, httponly=True, samesite="Lax")
        return response

    @app.get("/pair/<token>", endpoint="lan_pair_link")
    def pair_link(token: str):
        if not pairing.paired(token):
            return _form(gettext("This pairing link is not this server's (an old one?): type the code shown on the laptop.")), 403
        return _paired("/lan" if request.remote_addr == pairing.host else "/")

    @app.post("/pair", endpoint="lan_pair_code")
    def pair_code():
        result = pairing.check_code(str(request.form.get("code", ""))[:20])
        if result is None:
            return _form(gettext("Too many wrong codes: wait a minute, then type the code shown on the laptop."), 429)
        if not result:
            return _form(gettext("That is not the code shown on the laptop."), 403)
        return _paired("/")

    @app.get("/lan")
    def lan():
        return render_template("lan.html", svg=pairing.qr_svg(), code=pairing.code, base=pairing.base)
