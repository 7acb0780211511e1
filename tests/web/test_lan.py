"""``serve --lan``: the local network's address, and nothing served to a browser that has not
paired by the run's token (the QR code's link) or its short code."""
from __future__ import annotations

import argparse
import io

import cv2
import numpy as np
import pytest

from web import cli, lan
from web.app import WebConfig, create_app
from web.lan import COOKIE, FAILURE_WINDOW, MAX_FAILURES, NoNetwork, Pairing


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def pairing() -> Pairing:
    return Pairing("192.168.1.20", 8000, clock=Clock())


@pytest.fixture
def lan_app(tmp_path, pairing):
    return create_app(WebConfig(data_dir=tmp_path / "data", model=tmp_path / "none.onnx", pairing=pairing))


ROUTES = ["/", "/barrage/", "/barrage/api/sessions", "/calibration/", "/calibration/sheets/markers.png",
          "/static/style.css", "/barrage/static/play.js", "/lan", "/barrage/api/sessions/1/camera.jpg"]


@pytest.mark.parametrize("path", ROUTES)
def test_nothing_is_served_without_pairing(lan_app, pairing, path):
    res = lan_app.test_client().get(path)
    assert res.status_code == 403
    body = res.get_data(as_text=True)
    assert pairing.token not in body and pairing.code not in body
    if "/api/" in path:
        assert "pair this browser first" in res.json["error"]
    else:
        assert 'action="/pair"' in body and "Barrage" not in body
    assert lan_app.test_client().post("/barrage/api/sessions", json={"role_usa": "automa"}).status_code == 403


def test_the_link_of_the_qr_code_pairs_a_browser(lan_app, pairing):
    client = lan_app.test_client()
    assert client.get("/pair/not-the-token").status_code == 403
    res = client.get(f"/pair/{pairing.token}", environ_base={"REMOTE_ADDR": "192.168.1.33"})    # a phone
    assert res.status_code == 302 and res.headers["Location"] == "/"
    cookie = res.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}={pairing.token}") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    for path in ("/", "/barrage/", "/barrage/api/sessions", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    laptop = lan_app.test_client()
    res = laptop.get(f"/pair/{pairing.token}", environ_base={"REMOTE_ADDR": pairing.host})
    assert res.headers["Location"] == "/lan"                       # the laptop shows the phones' QR code
    page = laptop.get("/lan").get_data(as_text=True)
    assert "<svg" in page and pairing.code in page and pairing.base in page


def test_the_qr_code_reads_as_the_pairing_link(pairing):
    png = io.BytesIO()
    pairing.qr().save(png, kind="png", scale=8, border=4)
    image = cv2.imdecode(np.frombuffer(png.getvalue(), np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text == pairing.link == f"http://192.168.1.20:8000/pair/{pairing.token}"
    assert "<svg" in pairing.qr_svg() and pairing.code in pairing.console() and pairing.link in pairing.console()


def test_the_short_code_pairs_and_cannot_be_guessed(lan_app, pairing):
    client = lan_app.test_client()
    assert len(pairing.code) == 6 and set(pairing.code) <= set(lan.ALPHABET)
    assert Pairing("h", 1).token != Pairing("h", 1).token                     # a new one each run
    res = client.post("/pair", data={"code": f" {pairing.code.lower()} "})   # as typed on a phone
    assert res.status_code == 302 and client.get("/barrage/").status_code == 200
    guesser = lan_app.test_client()
    wrong = "A" * 6 if pairing.code != "A" * 6 else "B" * 6
    for _ in range(MAX_FAILURES):
        assert guesser.post("/pair", data={"code": wrong}).status_code == 403
    assert guesser.post("/pair", data={"code": pairing.code}).status_code == 429    # locked, even the right one
    pairing.clock.now += FAILURE_WINDOW + 1
    assert guesser.post("/pair", data={"code": pairing.code}).status_code == 302


def test_127_0_0_1_stays_the_default_and_no_pairing_is_asked(client):
    assert client.get("/").status_code == 200
    assert client.get("/lan").status_code == 404 and client.get("/pair/x").status_code == 404


class FakeSocket:
    def __init__(self, address):
        self.address = address

    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False

    def connect(self, _):
        if self.address is None:
            raise OSError("Network is unreachable")

    def getsockname(self):
        return (self.address, 40000)


@pytest.mark.parametrize("address,found", [("192.168.1.20", True), ("127.0.1.1", False), (None, False)])
def test_the_local_network_address_is_the_route_outs(monkeypatch, address, found):
    monkeypatch.setattr(lan.socket, "socket", lambda *a: FakeSocket(address))
    if found:
        assert lan.lan_address() == address
    else:
        with pytest.raises(NoNetwork, match="no local network found"):
            lan.lan_address()


def serve(monkeypatch, tmp_path, capsys, *argv):
    ran = {}
    monkeypatch.setattr("flask.Flask.run", lambda self, **kw: ran.update(kw))
    monkeypatch.setattr(lan, "lan_address", lambda: "192.168.1.20")
    parser = argparse.ArgumentParser()
    cli.register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--data", str(tmp_path / "d"), *argv])
    return args.func(args), ran, capsys.readouterr().out


def test_serve_binds_127_0_0_1_unless_lan_and_then_the_lan_address_with_a_code(monkeypatch, tmp_path, capsys):
    rc, ran, out = serve(monkeypatch, tmp_path, capsys)
    assert rc == 0 and ran["host"] == "127.0.0.1" and "Phones" not in out
    rc, ran, out = serve(monkeypatch, tmp_path, capsys, "--lan", "--port", "8123")
    assert rc == 0 and ran["host"] == "192.168.1.20" and ran["port"] == 8123
    assert "type " in out and "http://192.168.1.20:8123/pair/" in out
    with pytest.raises(SystemExit):
        serve(monkeypatch, tmp_path, capsys, "--lan", "--host", "0.0.0.0")      # one or the other


def test_any_address_but_this_computers_serves_paired_browsers_only(monkeypatch, tmp_path, capsys):
    rc, ran, out = serve(monkeypatch, tmp_path, capsys, "--host", "0.0.0.0")
    assert rc == 0 and ran["host"] == "0.0.0.0" and "http://0.0.0.0:8000/pair/" in out
    rc, ran, out = serve(monkeypatch, tmp_path, capsys, "--host", "127.0.0.2")
    assert rc == 0 and "/pair/" not in out


def test_every_route_of_every_page_is_closed_to_a_browser_not_paired(lan_app, pairing):
    """Whatever a game's page adds: read from the app's own URL map, every method, a valid-looking URL."""
    client = lan_app.test_client()
    opened = []
    for rule in lan_app.url_map.iter_rules():
        if rule.endpoint in ("lan_pair_link", "lan_pair_code"):
            continue
        url = rule.rule.replace("<path:filename>", "style.css")
        for part in ("<int:sid>", "<name>", "<action>", "<path:rest>", "<game_id>", "<token>"):
            url = url.replace(part, "1")
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            res = client.open(url, method=method)
            if res.status_code != 403 or pairing.code in res.get_data(as_text=True):
                opened.append((method, url, res.status_code))
    assert opened == []
