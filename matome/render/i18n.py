"""Hugo's translation tables (``i18n/*.toml|yaml|json``) and the ``i18n`` template function.

A table is named for its language (``i18n/fr.toml``, ``i18n/pt-BR.yaml``) and holds, as in
go-i18n, which Hugo uses:

- ``key = "text"``: one text whatever the count;
- ``[key]`` with plural forms ``zero one two few many other`` (and ``description``,
  ``hash``): the form is chosen by the CLDR rules of the table's language (``plurals.py``);
- nested tables: ``[nav] home = "..."`` is the key ``nav.home``;
- a list of ``{id, translation}`` items (go-i18n's first format).

A text may use Go template actions on the function's argument: ``{{ .Count }}``,
``{{ . }}``, ``{{ .Name }}`` of a dict. A language's table is the one named for its
``languageCode`` (``locale``), else for its code; a key it lacks is looked up in the
default content language's table, else the result is empty (or ``[i18n] key`` with
``enableMissingTranslationPlaceholders``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import SourceError
from .plurals import plural_category

PLURAL_FORMS = ("zero", "one", "two", "few", "many", "other")
_RESERVED = frozenset(
    {*PLURAL_FORMS, "id", "description", "hash", "leftdelim", "rightdelim", "translation"}
)
_EXTS = ("toml", "yaml", "yml", "json")


@dataclass(frozen=True)
class Message:
    """One translation: its text per plural form, and where it was read."""

    forms: tuple[tuple[str, str], ...]  # (form, text), "other" always among them
    path: str

    def text(self, form: str) -> str:
        found = dict(self.forms)
        return found.get(form, found.get("other", ""))


def read_translations(dirs: list[Path]) -> dict[str, dict[str, Message]]:
    """Every table of ``dirs`` (later folders win key by key): lower-cased language ->
    message id -> Message."""
    from ..config import load_data_file  # config reads i18n/ while it loads

    tables: dict[str, dict[str, Message]] = {}
    for directory in dirs:
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            ext = path.suffix.lstrip(".").lower()
            if ext not in _EXTS or not path.is_file():
                continue
            display = _display(path)
            data = _read_table(path, display, load_data_file)
            table = tables.setdefault(path.stem.lower(), {})
            table.update(_messages(data, display))
    return tables


def _display(path: Path) -> str:
    parts = path.parts
    return "/".join(parts[-2:]) if len(parts) >= 2 else str(path)


def _read_table(path: Path, display: str, load) -> Any:
    from ..config import parse_data

    try:
        if path.suffix.lower() in (".yaml", ".yml", ".json"):
            # go-i18n's first format is a list of {id, translation}: not a table of keys.
            text = path.read_text(encoding="utf-8")
            return parse_data(text, path.suffix.lstrip(".").lower(), display, tables_only=False)
        return load(path)
    except SourceError as e:
        raise SourceError(display, e.line, e.col, e.message) from None


def _messages(data: Any, path: str) -> dict[str, Message]:
    out: dict[str, Message] = {}
    if isinstance(data, list):
        for item in data:
            if not isinstance(item, dict) or "id" not in item:
                raise SourceError(path, 1, 1, "a list of translations needs an id in each item")
            out[str(item["id"])] = _message(item.get("translation", ""), path, str(item["id"]))
        return out
    if not isinstance(data, dict):
        raise SourceError(path, 1, 1, "expected a table of translations")
    _collect(data, "", path, out)
    return out


def _collect(table: dict, prefix: str, path: str, out: dict[str, Message]) -> None:
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and not _is_message(value, path, name):
            _collect(value, f"{name}.", path, out)
        else:
            out[name] = _message(value, path, name)


def _is_message(table: dict, path: str, name: str) -> bool:
    keys = {str(k).lower() for k in table}
    reserved = keys & _RESERVED
    if reserved and reserved != keys:
        raise SourceError(
            path,
            0,
            0,
            f"{name}: reserved keys {sorted(reserved)} mixed with other keys "
            f"{sorted(keys - reserved)}",
        )
    return bool(reserved)


def _message(value: Any, path: str, name: str) -> Message:
    if isinstance(value, dict):
        lower = {str(k).lower(): v for k, v in value.items()}
        if "translation" in lower:
            return _message(lower["translation"], path, name)
        forms = tuple((form, str(lower[form])) for form in PLURAL_FORMS if form in lower)
        return Message(forms, path)
    return Message((("other", "" if value is None else str(value)),), path)


# --- the template function ------------------------------------------------------------------
class CountArgument(int):
    """An integer argument: ``{{ .Count }}`` and ``{{ . }}`` both print it (as in Hugo)."""

    @property
    def Count(self) -> int:  # noqa: N802 (the name templates use)
        return int(self)


@dataclass
class Translator:
    """The ``i18n`` function of one language."""

    lang: str
    table: Mapping[str, Message]
    fallback: Mapping[str, Message]
    placeholders: bool  # enableMissingTranslationPlaceholders
    print_missing: bool  # printI18nWarnings

    def __call__(self, key: Any, data: Any = None) -> str:
        key = str(key)
        message = self.table.get(key)
        fallen_back = message is None
        if message is None:
            message = self.fallback.get(key)
        if fallen_back:
            if self.print_missing:
                _warn_once(f"i18n|MISSING_TRANSLATION|{self.lang}|{key}")
            if self.placeholders:
                return f"[i18n] {key}"
            if message is None:
                return ""
        count = plural_count(data)
        form = "other" if count is None else plural_category(self.lang, count)
        if isinstance(data, int) and not isinstance(data, bool):
            data = CountArgument(data)
        try:
            return execute(message.text(form), data)
        except TemplateDataError as e:
            _warn_once(
                f"{message.path}: warning: cannot translate {key!r} for language {self.lang!r}: {e}"
            )
            return f"[i18n] {key}" if self.placeholders else ""


def translator_for(language: Any, translations: Mapping, default: str, raw: Mapping) -> Translator:
    """The ``i18n`` function of ``language`` (a config ``Language``)."""
    table = translations.get(language.language_code.lower())
    if table is None:
        table = translations.get(language.code, {})
    default_table = translations.get(default, {})
    return Translator(
        lang=language.code,
        table=table,
        fallback=default_table,
        placeholders=bool(raw.get("enablemissingtranslationplaceholders", False)),
        print_missing=bool(raw.get("printi18nwarnings", False)),
    )


def plural_count(data: Any) -> int | str | None:
    """What picks the plural form, as Hugo reads it from the argument: an integer, a
    number written as text, a float as text with its fraction (``1.0``: "other" in
    English), a dict's ``Count`` (any case); None otherwise."""
    if data is None:
        return None
    if isinstance(data, Mapping):
        for key, value in data.items():
            if str(key).lower() == "count":
                return plural_count_value(value)
        return None
    return plural_count_value(data)


def plural_count_value(value: Any) -> int | str | None:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        text = repr(value) if value != int(value) else str(int(value))
        return text if "." in text else f"{text}.0"
    if isinstance(value, str):
        try:
            float(value)
        except ValueError:
            return None
        return value
    return None


# --- Go template actions in a message -------------------------------------------------------
_ACTION = re.compile(r"\{\{(-\s)?\s*(.*?)\s*(\s-)?\}\}", re.S)
_FIELDS = re.compile(r"\.(?:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)?")


class TemplateDataError(Exception):
    """An action asks the argument for what it does not have (Hugo then prints nothing)."""


def execute(text: str, data: Any) -> str:
    """A message's text with its ``{{ .Field }}`` actions filled in from ``data``."""
    if "{{" not in text:
        return text
    out: list[str] = []
    pos = 0
    for m in _ACTION.finditer(text):
        before = text[pos : m.start()]
        if m.group(1):
            before = before.rstrip()
        out.append(before)
        out.append(_action(m.group(2), data))
        pos = m.end()
        if m.group(3):
            rest = text[pos:]
            pos += len(rest) - len(rest.lstrip())
    out.append(text[pos:])
    return "".join(out)


def _action(action: str, data: Any) -> str:
    if not _FIELDS.fullmatch(action):
        raise TemplateDataError(f"unsupported template action {{{{ {action} }}}}")
    value = data
    for name in [n for n in action.split(".") if n]:
        value = _field(value, name)
    return "<no value>" if value is None else _go_text(value)


def _field(value: Any, name: str) -> Any:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return value.get(name)
    if isinstance(value, (str, int, float)) and not isinstance(value, CountArgument):
        raise TemplateDataError(f"can't evaluate field {name} in type {type(value).__name__}")
    for attribute in (name, _snake(name)):
        if not attribute.startswith("_") and hasattr(value, attribute):
            return getattr(value, attribute)
    raise TemplateDataError(f"can't evaluate field {name} in type {type(value).__name__}")


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _go_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value == int(value) and abs(value) < 1e21:
        return str(int(value))
    return str(value)


_WARNED: set[str] = set()


def _warn_once(message: str) -> None:
    """Renders run in worker processes with no channel for warnings: printed once each."""
    if message not in _WARNED:
        _WARNED.add(message)
        print(message if "warning:" in message else f"warning: {message}", file=sys.stderr)
