"""The page's languages: each folder's catalogues hold every text of its code, translated into
Brazilian Portuguese and Polish, compiled as committed; the language follows the browser, the
menu and the cookie."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from markupsafe import escape

from automa.games import registry
from web import i18n
from web.app import game_pages

from .test_games import STUB, client_of, engine_only, stub  # noqa: F401 (fixtures: Countdown's page and its twin's)

FOLDERS = sorted({po.parents[2] for po in i18n.HERE.glob("**/translations/*/LC_MESSAGES/*.po")})
LANGS = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
KEYWORDS = {**DEFAULT_KEYWORDS, "lazy_gettext": None}


def catalogue(folder, lang, domain):
    with (folder / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang)


def test_the_shared_pages_and_barrages_page_have_catalogues():
    assert {"translations", "barrage/translations"} <= {f.relative_to(i18n.HERE).as_posix() for f in FOLDERS}


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.relative_to(i18n.HERE).as_posix())
@pytest.mark.parametrize("domain", list(i18n.CONFIGS))
def test_every_text_of_the_code_is_in_its_catalogue(folder, domain):
    """The texts ``_()`` / ``gettext`` mark in the folder's modules, templates and scripts (and
    a game page's name and summary of its game, and its engine's trace templates) are exactly the
    catalogues' (``python -m web.i18n`` was run after the last change, here or in ``automa/<pkg>/``)."""
    with i18n.CONFIGS[domain].open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    marked = {msg[2] for msg in extract_from_dir(folder.parent, method_map, options_map, keywords=KEYWORDS)}
    if domain == "messages":
        marked |= set(i18n.game_texts(folder.parent)) | set(i18n.trace_texts(folder.parent))
    for lang in LANGS:
        assert {m.id for m in catalogue(folder, lang, domain) if m.id} == marked, (lang, domain)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda f: f.relative_to(i18n.HERE).as_posix())
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("domain", list(i18n.CONFIGS))
def test_every_text_is_translated_with_its_placeholders_and_compiled(folder, lang, domain):
    cat = catalogue(folder, lang, domain)
    for msg in cat:
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        assert all(strings) and "fuzzy" not in msg.flags, f"{lang}: {msg.id!r} is not translated"
        fields = set(re.findall(r"\{\w+\}|%\(\w+\)[sdr]", msg.id if isinstance(msg.id, str) else msg.id[1]))
        for s in strings:
            assert set(re.findall(r"\{\w+\}|%\(\w+\)[sdr]", s)) == fields, f"{lang}: {s!r} has not the fields of {msg.id!r}"
    assert not [e for _, errors in cat.check() for e in errors]
    with (folder / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
        compiled = read_mo(f)
    assert {pair(m) for m in compiled if m.id} == {pair(m) for m in cat if m.id}, \
        f"{folder / lang} {domain}.mo is older than its .po: run python -m web.i18n"


def pair(msg) -> tuple:
    """A message's text and translation, comparable (plural forms as tuples)."""
    return tuple(tuple(x) if isinstance(x, (list, tuple)) else x for x in (msg.id, msg.string))


def html_lang(res) -> str:
    return re.search(r'<html lang="([^"]+)"', res.get_data(as_text=True)).group(1)


@pytest.mark.parametrize("accept, lang", [("pt-BR,pt;q=0.9,en;q=0.5", "pt-BR"), ("pt", "pt-BR"),
                                          ("pl-PL,pl;q=0.8", "pl"), ("de-DE,fr;q=0.5", "en"), ("", "en")])
def test_the_language_is_the_browsers(app, accept, lang):
    assert html_lang(app.test_client().get("/barrage/", headers={"Accept-Language": accept})) == lang


def test_the_language_menu_chooses_and_the_cookie_remembers(app):
    client = app.test_client()
    res = client.get("/?lang=pl", headers={"Accept-Language": "pt-BR"})
    assert html_lang(res) == "pl" and "Wybierz grę" in res.get_data(as_text=True)
    assert "lang=pl" in res.headers["Set-Cookie"]
    page = client.get("/calibration/", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "Przygotuj stół" in page and 'aria-current="true" class="current">Polski</a>' in page
    assert html_lang(client.get("/?lang=xx")) == "pl"            # not one of ours: the cookie stands
    for code, name in i18n.LANGUAGES.items():                      # every language is offered on every page
        assert f'href="?lang={code}"' in page and f">{name}</a>" in page


def test_the_scripts_get_their_catalogue_in_the_pages_language(app):
    client = app.test_client()

    def messages(lang: str) -> dict:
        page = client.get(f"/barrage/?lang={lang}").get_data(as_text=True)
        return json.loads(re.search(r'<script type="application/json" id="messages">(.*?)</script>', page).group(1))

    assert messages("en") == {}
    assert messages("pt_BR")["Round {n}"] == "Rodada {n}"                    # Barrage's play.js
    assert messages("pl")["corner {n} of 4"] == "narożnik {n} z 4"           # the wizard's calibration.js


def test_errors_and_form_problems_speak_the_language(client):
    res = client.get("/nowhere", headers={"Accept-Language": "pt-BR"})
    assert res.status_code == 404 and "404: esta página não existe" in res.get_data(as_text=True)
    res = client.post("/barrage/play/new?lang=pl", data={"role_usa": "human", "seed": "x1"})
    page = res.get_data(as_text=True)
    assert res.status_code == 400 and "wybierz od 1 do 3 firm Automy (wybrano: 0)" in page
    res = client.post("/calibration/api/table-1/register?lang=pt_BR", json={"method": "markers"})
    assert res.json["problems"] == ["tire uma foto ou envie uma imagem primeiro (passo 1)"]


def js_messages(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="messages">(.*?)</script>', page).group(1))


@pytest.mark.usefixtures("stub")
@pytest.mark.parametrize("lang, countdown, twin, shared", [("pt_BR", "rodada", "redonda", "Escolha um jogo"),
                                                           ("pl", "runda", "okrągły", "Wybierz grę")])
def test_each_page_takes_a_text_from_its_own_catalogue_first(tmp_path, lang, countdown, twin, shared):
    """Countdown's page and its twin (tests/web/stub/web/) both translate "round", a game's round
    and a shape; the twin translates the home page's "Choose a game" too. Each page shows its own
    catalogue's word, in its templates and its scripts, whichever catalogue the app found last."""
    client = client_of(tmp_path)
    page = client.get(f"/stub-game/?lang={lang}").get_data(as_text=True)
    assert f'<p id="round" data-round="1">{countdown} 1</p>' in page and js_messages(page)["round"] == countdown
    page = client.get(f"/stub-twin/?lang={lang}").get_data(as_text=True)
    assert f'<p id="round">{twin}</p>' in page and js_messages(page)["round"] == twin
    assert f"<h1>{i18n_of('stub_twin', lang, 'Choose a game')}</h1>" in page
    home = client.get(f"/?lang={lang}").get_data(as_text=True)
    assert f"<h1>{shared}</h1>" in home and shared != i18n_of("stub_twin", lang, "Choose a game")


def i18n_of(package: str, lang: str, text: str) -> str:
    """``text`` as the stub page ``package``'s catalogue translates it."""
    return catalogue(STUB / "web" / package / "translations", lang, "messages")[text].string


@pytest.mark.usefixtures("stub")
@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_shows_each_games_name_and_summary_from_its_pages_catalogue(tmp_path, lang):
    """The registry's English name and summary (automa/<pkg>/game.py), each translated in its own
    game page's catalogue, Countdown's included."""
    home = client_of(tmp_path).get(f"/?lang={lang}").get_data(as_text=True)
    pages = dict(game_pages())
    for game in registry().values():
        card = home[home.index(f'data-game="{game.id}"'):]
        card = card[:card.index("</li>")]
        cat = catalogue(Path(pages[game.id].root_path) / "translations", lang, "messages")
        summary = cat[game.summary].string
        assert summary and summary != game.summary and str(escape(summary)) in card, (game.id, card)
        assert str(escape(cat[game.name].string)) in card
    assert {"pt_BR": "A Automa pega fichas até não sobrar nenhuma", "pl": "Automa bierze żetony"}[lang] in home


@pytest.mark.parametrize("game", ["age_of_innovation", "barrage", "brasil_imperial", "expeditions"])
def test_every_trace_line_of_an_engine_is_a_template(game):
    """A trace line made into a string first (an f-string, ``+``, ``%`` or ``.format``) cannot be
    looked up in a catalogue, and the extraction glues both sides of ``a if c else b`` into one
    text: each engine writes its lines as templates with values (``automa.common.trace``)."""
    import ast

    def made(arg: ast.expr) -> bool:
        return isinstance(arg, (ast.JoinedStr, ast.BinOp, ast.IfExp)) or \
            (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute) and arg.func.attr == "format")

    for path in sorted((i18n.HERE.parent / "automa" / game).glob("**/*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)) \
                    and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("add", "section", "text") \
                    and node.args and made(node.args[0]):
                raise AssertionError(f"{path.relative_to(i18n.HERE.parent)}:{node.lineno}: a trace line made into a string")
