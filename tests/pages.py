"""What the tests of the game pages share (web/pages.py's routes, for every game): the step a
page shows, the state a session holds, and the whole game exported and imported again.
The ``app`` and ``client`` fixtures are tests/conftest.py's."""
from __future__ import annotations

import io
import json
import re
from typing import Any

from automa.games import get
from web.services import services


def started(client, base: str, form: dict[str, str]) -> str:
    """A new game from the page's form (``base``: the page's address, ``/<game-id>``): its play page."""
    res = client.post(f"{base}/new", data=form)
    assert res.status_code == 302, res.get_data(as_text=True)
    return res.headers["Location"]


def seq(html: str) -> str:
    """The step the page shows (every form of it sends it back)."""
    return re.search(r'name="seq" value="(\d+)"', html).group(1)


def sid_of(url: str) -> int:
    return int(url.rstrip("/").split("/")[-1])


def last_state(app, url: str) -> dict:
    """The saved state after the last step of the session whose page is ``url``."""
    with app.app_context():
        return services().store.steps(sid_of(url))[-1].state


def state_of(app, url: str) -> Any:
    """The state of the session whose page is ``url`` (``/<game-id>/<sid>``), loaded by its game."""
    return get(url.strip("/").split("/")[-2]).load(last_state(app, url))


def steps_of(app, url: str) -> list:
    with app.app_context():
        return services().store.steps(sid_of(url))


def automa_turn_history(client, app, url: str, lang: str) -> tuple[str, str, str]:
    """Play the pending Automa turn of the game at ``url``, then read its page in ``lang``: the
    step's stored label (the engine's English), the page and its history part."""
    client.post(f"{url}/automa", data={"seq": seq(client.get(url).get_data(as_text=True))})
    english = steps_of(app, url)[-1].label
    html = client.get(f"{url}?lang={lang}").get_data(as_text=True)
    return english, html, html[html.index('id="history"'):]


def import_file(client, base: str, body: bytes):
    """``body`` sent to the page's import form (``base``: the page's address, ``/<game-id>``)."""
    return client.post(f"{base}/import", data={"file": (io.BytesIO(body), "game.json")},
                       content_type="multipart/form-data")


def exported_and_imported(client, app, url: str) -> str:
    """Exports the session at ``url`` from its play page's link and imports the file on its
    game's page: the file names the game and holds every step, the copy is a new session with
    the same steps and the same state. The copy's address."""
    base = "/" + url.strip("/").split("/")[-2]
    assert 'id="session-export"' in client.get(url).get_data(as_text=True)
    res = client.get(f"{url}/export")
    assert res.status_code == 200 and "attachment" in res.headers["Content-Disposition"]
    data = json.loads(res.get_data(as_text=True))
    assert data["game"] == base[1:] and len(data["steps"]) == len(steps_of(app, url))
    assert 'id="session-import"' in client.get(f"{base}/").get_data(as_text=True)
    res = import_file(client, base, res.get_data())
    assert res.status_code == 302, res.get_data(as_text=True)
    copy = res.headers["Location"]
    assert copy != url
    assert [(s.kind, s.label, s.state) for s in steps_of(app, copy)] == \
        [(s.kind, s.label, s.state) for s in steps_of(app, url)]
    return copy
