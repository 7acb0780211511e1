"""The page's languages: English (the texts as written), Brazilian Portuguese and Polish.

The language is the one chosen on the page (``?lang=pt_BR``, remembered in a cookie), else
the browser's first of these (Accept-Language), else English. Templates and Python use
Flask-Babel (``_()`` in templates, ``gettext`` in Python: catalogue ``messages``); the pages'
scripts use ``_()`` of ``static/i18n.js``, whose catalogue (``js``) every page carries as JSON.

Each folder with texts has its own catalogues, so that a game's page is translated in its own
folder: ``web/translations/`` for the shared pages (home, errors, calibration wizard) and
``web/<pkg>/translations/`` for a game's page, each ``<lang>/LC_MESSAGES/{messages,js}.po``
compiled to ``.mo`` beside it (committed: a fresh clone needs no build step). The app merges
them. ``python -m web.i18n [PKG ...]`` extracts the texts, updates the ``.po`` files and
compiles them (docs/web.md, "Languages").
"""
from __future__ import annotations

import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from babel.support import Translations
from flask import Flask, Response, has_request_context, request
from flask_babel import Babel, get_locale

HERE = Path(__file__).resolve().parent
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


@lru_cache(maxsize=None)
def js_catalogue(lang: str, folders: tuple[str, ...]) -> dict[str, str]:
    """The scripts' texts in ``lang`` from every catalogue folder: English text -> translation."""
    out: dict[str, str] = {}
    if lang == DEFAULT:
        return out
    for folder in folders:
        catalog = getattr(Translations.load(folder, [lang], domain="js"), "_catalog", {})
        out.update({k: v for k, v in catalog.items() if isinstance(k, str) and k and v})
    return out


def init_app(app: Flask, folders: list[Path]) -> None:
    """``folders``: the catalogue folders of the game pages found (``web/<pkg>/translations``)."""
    found = tuple(str(f) for f in [HERE / "translations", *folders] if f.is_dir())
    Babel(app, locale_selector=select_locale, default_translation_directories=";".join(found))

    @app.context_processor
    def languages() -> dict:
        lang = str(get_locale())
        return {"languages": LANGUAGES, "lang": lang, "html_lang": lang.replace("_", "-"),
                "js_messages": js_catalogue(lang, found)}

    @app.after_request
    def remember(response: Response) -> Response:
        lang = chosen() if has_request_context() else None
        if lang is not None:
            response.set_cookie(COOKIE, lang, max_age=COOKIE_DAYS * 86400, samesite="Lax")
        return response


def update(folder: Path) -> None:
    """Extract the texts of ``folder`` (its own modules, templates/ and static/, not its
    subpackages'), update each language's catalogues in ``folder/translations`` and compile them."""
    pybabel = [sys.executable, "-m", "babel.messages.frontend", "--quiet"]
    out = folder / "translations"
    out.mkdir(exist_ok=True)
    for domain, config in CONFIGS.items():
        pot = out / f"{domain}.pot"
        subprocess.run([*pybabel, "extract", "-F", str(config), "-k", "_", "-k", "lazy_gettext", "--no-location", "--sort-output",
                        "--omit-header", "-o", str(pot), str(folder)], check=True)
        for lang in LANGUAGES:
            if lang == DEFAULT:
                continue
            po = out / lang / "LC_MESSAGES" / f"{domain}.po"
            action = ["update", "--no-fuzzy-matching", "--ignore-obsolete"] if po.exists() else ["init"]
            subprocess.run([*pybabel, action[0], "-D", domain, "-i", str(pot), "-d", str(out), "-l", lang,
                            *action[1:]], check=True)
        subprocess.run([*pybabel, "compile", "-D", domain, "-d", str(out)], check=True)


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
