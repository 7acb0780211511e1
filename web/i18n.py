"""The page's languages: English (the texts as written), Brazilian Portuguese and Polish.

The language is the one chosen on the page (``?lang=pt_BR``, remembered in a cookie), else
the browser's first of these (Accept-Language), else English. Templates and Python use
Flask-Babel (``_()`` in templates, ``gettext`` in Python: catalogue ``messages``); the pages'
scripts use ``_()`` of ``static/i18n.js``, whose catalogue (``js``) every page carries as JSON.

Each folder with texts has its own catalogues, so that a game's page is translated in its own
folder: ``web/translations/`` for the shared pages (home, errors, calibration wizard) and
``web/<pkg>/translations/`` for a game's page, each ``<lang>/LC_MESSAGES/{messages,js}.po``
compiled to ``.mo`` beside it (committed: a fresh clone needs no build step). A text is looked
up in the catalogue of the page that answers the request first (its blueprint's), then in the
shared one, then in the other pages': the same English word ("round", "orange") may take
another word or gender in each game. ``python -m web.i18n [PKG ...]`` extracts the texts,
updates the ``.po`` files and compiles them (docs/web.md, "Languages").
"""
from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po, write_po
from babel.support import Translations
from flask import Blueprint, Flask, Response, current_app, has_request_context, request
from flask_babel import Babel, Domain, get_locale, gettext

from automa.common.trace import said

HERE = Path(__file__).resolve().parent
SHARED = HERE / "translations"
LANGUAGES = {"en": "English", "pt_BR": "Português (Brasil)", "pl": "Polski"}
DEFAULT = "en"
COOKIE = "lang"
COOKIE_DAYS = 365
CONFIGS = {"messages": HERE / "babel.cfg", "js": HERE / "babel-js.cfg"}


def chosen() -> str | None:
    """A language asked for in the address, if it is one of ours."""
    lang = request.args.get("lang")
    return lang if lang in LANGUAGES else None


def select_locale() -> str:
    if not has_request_context():       # a message made outside a request (a test, the command line)
        return DEFAULT
    cookie = request.cookies.get(COOKIE)
    return chosen() or (cookie if cookie in LANGUAGES else None) or \
        request.accept_languages.best_match(LANGUAGES, default=DEFAULT)


class Catalogues:
    """Which catalogue folders a page's texts are looked up in, and in which order."""

    def __init__(self, pages: list[tuple[str, Blueprint]]):
        """``pages``: (game id, blueprint) of every game's page (``web.app.game_pages``)."""
        self.folders = {bp.name: Path(bp.root_path) / "translations" for _, bp in pages}
        self.page_of_game = {game_id: bp.name for game_id, bp in pages}
        self.domains = {page: Domain(list(self.order(page))) for page in self.folders}

    def order(self, page: str | None) -> tuple[str, ...]:
        """The folders for ``page`` (a game page's blueprint name; None: a shared page), the
        deciding one last as Babel merges them: the other pages', the shared one, its own."""
        own = [self.folders[page]] if page in self.folders else []
        others = [f for name, f in self.folders.items() if name != page]
        return tuple(str(f) for f in [*others, SHARED, *own] if f.is_dir())

    def page(self) -> str | None:
        """The game page answering this request: its blueprint, or the one it is nested in."""
        return next((name for name in request.blueprints if name in self.folders), None) \
            if has_request_context() else None


@cache
def js_catalogue(lang: str, folders: tuple[str, ...]) -> dict[str, str]:
    """The scripts' texts in ``lang``: English text -> translation, the last folder's deciding."""
    out: dict[str, str] = {}
    if lang == DEFAULT:
        return out
    for folder in folders:
        catalog = getattr(Translations.load(folder, [lang], domain="js"), "_catalog", {})
        out.update({k: v for k, v in catalog.items() if isinstance(k, str) and k and v})
    return out


def init_app(app: Flask, pages: list[tuple[str, Blueprint]]) -> None:
    """``pages``: (game id, blueprint) of every game's page found."""
    catalogues = Catalogues(pages)
    app.extensions["i18n"] = catalogues
    # the shared pages' catalogues (every request starts with them; a game page's takes over below)
    Babel(app, locale_selector=select_locale, default_translation_directories=";".join(catalogues.order(None)))

    @app.before_request
    def page_catalogue() -> None:
        domain = catalogues.domains.get(catalogues.page())
        if domain is not None:
            domain.as_default()

    app.jinja_env.globals["said_trace"] = said_trace

    @app.context_processor
    def languages() -> dict:
        lang = str(get_locale())
        return {"languages": LANGUAGES, "lang": lang, "html_lang": lang.replace("_", "-"),
                "js_messages": js_catalogue(lang, catalogues.order(catalogues.page()))}

    @app.after_request
    def remember(response: Response) -> Response:
        lang = chosen() if has_request_context() else None
        if lang is not None:
            response.set_cookie(COOKIE, lang, max_age=COOKIE_DAYS * 86400, samesite="Lax")
        return response


def said_trace(decision: Mapping[str, Any] | None) -> list[str]:
    """A decision's trace in the page's language: each line's English template
    (``automa.common.trace``) looked up in the page's catalogue, its values put in; the lines of
    a decision saved without its words (``trace_words``), as the engine wrote them."""
    if not decision:
        return []
    words = decision.get("trace_words")
    if not isinstance(words, list):
        return [str(line) for line in decision.get("trace", [])]
    return said(words, gettext)


def game_text(game_id: str, text: str) -> str:
    """A text of the game registry's (a game's name or summary, English from ``automa/``) in the
    page's language, from the catalogue of that game's page; as written for a game without one."""
    catalogues: Catalogues = current_app.extensions["i18n"]
    domain = catalogues.domains.get(catalogues.page_of_game.get(game_id, ""))
    return domain.gettext(text) if domain is not None else text


def game_texts(package: Path) -> list[str]:
    """The registry's texts that the game page ``package`` (``web/<pkg>``) translates for the
    home page: its game's name and summary. ``automa/`` imports no Flask, so they are written
    there in English and put in the page's catalogue by the extraction below."""
    from automa.games import registry
    if package == HERE:
        return []
    game = registry().get(getattr(importlib.import_module(f"web.{package.name}"), "GAME_ID", None))
    return [game.name, game.summary] if game is not None else []


def trace_texts(package: Path) -> list[str]:
    """The templates of the trace lines (``automa.common.trace``: ``add``, ``section``, ``text``)
    that the engine of the game page ``package`` (``web/<pkg>``, its engine ``automa/<pkg>``)
    writes, which the page says in its language (``said_trace``)."""
    from babel.messages.extract import extract_from_dir

    engine = HERE.parent / "automa" / package.name
    if package == HERE or not engine.is_dir():
        return []
    found = extract_from_dir(str(engine), method_map=[("**.py", "python")],
                             keywords={"add": None, "section": None, "text": None})
    return sorted({message for _, _, message, _, _ in found if isinstance(message, str) and message})


def update(folder: Path) -> None:
    """Extract the texts of ``folder`` (its own modules, templates/ and static/, not its
    subpackages'; for a game's page also its game's name and summary, and its engine's trace
    lines), update each language's catalogues in ``folder/translations`` and compile them."""
    pybabel = [sys.executable, "-m", "babel.messages.frontend", "--quiet"]
    out = folder / "translations"
    out.mkdir(exist_ok=True)
    for domain, config in CONFIGS.items():
        pot = out / f"{domain}.pot"
        subprocess.run([*pybabel, "extract", "-F", str(config), "-k", "_", "-k", "lazy_gettext", "--no-location", "--sort-output",
                        "--omit-header", "-o", str(pot), str(folder)], check=True)
        if domain == "messages" and (texts := game_texts(folder)):
            add_to_template(pot, texts, "the home page: the game's name or summary (automa/, game.py)")
        if domain == "messages" and (texts := trace_texts(folder)):
            add_to_template(pot, texts, "the Automa's trace (automa/)")
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            po = out / lang / "LC_MESSAGES" / f"{domain}.po"
            # unchanged texts leave the files as they were (not even the date changes)
            action = ["update", "--no-fuzzy-matching", "--ignore-obsolete", "--ignore-pot-creation-date"] \
                if po.exists() else ["init"]
            subprocess.run([*pybabel, action[0], "-D", domain, "-i", str(pot), "-d", str(out), "-l", lang,
                            *action[1:]], check=True)
        subprocess.run([*pybabel, "compile", "-D", domain, "-d", str(out)], check=True)


def add_to_template(pot: Path, texts: list[str], comment: str) -> None:
    """Add ``texts`` to the extracted template ``pot``, written as pybabel extract writes it."""
    with pot.open("rb") as f:
        catalog = read_po(f)
    for text in texts:
        if text in catalog:             # marked in the page's code as well
            catalog[text].auto_comments.append(comment)
        else:
            catalog.add(text, auto_comments=[comment])
    with pot.open("wb") as f:
        write_po(f, catalog, omit_header=True, sort_output=True, no_location=True)


def main(argv: list[str]) -> int:
    """``python -m web.i18n`` updates the shared pages' catalogues; ``python -m web.i18n PKG ...``
    those of the game pages ``web/PKG/``."""
    for folder in [HERE / name for name in argv] or [HERE]:
        if not (folder / "__init__.py").exists():
            print(f"web/{folder.name} is not a package of web/", file=sys.stderr)
            return 2
        update(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
