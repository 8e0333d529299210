"""Site configuration, read and merged the way Hugo reads it.

Sources, lowest priority first: the root file (``hugo.*`` or ``config.*``),
``config/_default/``, ``config/<environment>/``, then command-line flags. In a
config directory ``params.toml`` becomes ``[params]``, ``menus.ja.toml`` the
menus of language ``ja``, ``languages.ja.toml`` that language's table.

Hugo's keys are case-insensitive: top-level keys (and the tables Hugo itself
interprets) are compared lower-cased, while ``params`` keep the author's case
so templates can write ``site.params.homepage.showRecentItems``. Unknown keys
are kept as they are.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from .errors import SourceError, line_col

CONFIG_EXTS = ("toml", "yaml", "yml", "json")
ROOT_NAMES = ("hugo", "config")

# Hugo's defaults for the keys matome reads; anything else is passed through.
DEFAULT_TAXONOMIES = {"tag": "tags", "category": "categories"}
DEFAULT_OUTPUTS = {
    "home": ["html", "rss"],
    "section": ["html", "rss"],
    "taxonomy": ["html", "rss"],
    "term": ["html", "rss"],
    "page": ["html"],
}


def load_data_file(path: Path) -> dict:
    """Parse one TOML/YAML/JSON file; syntax errors carry the file's line and column."""
    text = path.read_text(encoding="utf-8")
    try:
        return parse_data(text, path.suffix.lstrip("."), str(path))
    except SourceError:
        raise
    except UnicodeDecodeError as e:
        raise SourceError(str(path), 0, 0, f"not valid UTF-8: {e}") from e


def parse_data(text: str, fmt: str, path: str, line_offset: int = 0) -> dict:
    """Parse TOML/YAML/JSON text into a dict, turning parser errors into SourceErrors.

    Lines and columns count ``\\n`` only (as ``path:line:col`` everywhere in matome),
    not YAML's other line breaks; ``line_offset`` is added to the line.
    """
    try:
        if fmt == "toml":
            data = tomllib.loads(text)
        elif fmt in ("yaml", "yml"):
            data = _parse_yaml(text, path, line_offset)
        elif fmt == "json":
            data = json.loads(text) if text.strip() else {}
        else:
            raise SourceError(path, 0, 0, f"unknown data format {fmt!r}")
    except tomllib.TOMLDecodeError as e:
        line, col = _toml_error_position(str(e), text)
        raise SourceError(
            path, line + line_offset, col, f"invalid TOML: {_strip_at(str(e))}"
        ) from e
    except json.JSONDecodeError as e:
        raise SourceError(path, e.lineno + line_offset, e.colno, f"invalid JSON: {e.msg}") from e
    except RecursionError:
        name = {"yml": "YAML"}.get(fmt, fmt.upper())
        raise SourceError(path, 1 + line_offset, 1, f"invalid {name}: nested too deeply") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise SourceError(
            path, 1 + line_offset, 1, f"expected a table of keys, got {type(data).__name__}"
        )
    return data


def _parse_yaml(text: str, path: str, line_offset: int) -> Any:
    if not text.strip():
        return {}
    try:
        return yaml.load(text, Loader=_SafeLoader)
    except yaml.YAMLError as e:
        line, col = _yaml_error_position(e, text)
        problem = getattr(e, "problem", None) or str(e)
        raise SourceError(path, line + line_offset, col, f"invalid YAML: {problem}") from e


class _SafeLoader(yaml.SafeLoader):
    """PyYAML's safe loader, with a value it cannot build reported at that value.

    Its constructors raise ValueError, IndexError or AttributeError on input such
    as ``date: 2025-13-45`` or ``!!int x``; those become YAML errors with a position.
    """

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (yaml.YAMLError, RecursionError):
            raise
        except Exception as e:
            kind = node.tag.rsplit(":", 1)[-1]
            what = f"{node.value!r} as {kind}" if isinstance(node, yaml.ScalarNode) else kind
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {what}: {e}", node.start_mark
            ) from e


def _yaml_error_position(error: Any, text: str) -> tuple[int, int]:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is not None:
        offset = mark.index
    elif isinstance(error, yaml.reader.ReaderError):
        offset = error.position
    else:
        return 1, 1
    # PyYAML also breaks lines at \r, \x85, \u2028 and \u2029; matome counts \n only.
    return line_col(text, min(offset, len(text)))


def _toml_error_position(message: str, text: str) -> tuple[int, int]:
    # tomllib reports "... (at line 3, column 7)" or "(at end of document)"
    m = re.search(r"at line (\d+), column (\d+)", message)
    if m:
        return int(m.group(1)), int(m.group(2))
    return line_col(text, len(text)) if "end of document" in message else (1, 1)


def _strip_at(message: str) -> str:
    return message.split(" (at ")[0]


def merge(base: dict, over: dict) -> dict:
    """Deep merge: tables merge key by key, everything else in ``over`` wins."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = value
    return out


def lower_keys(d: dict, keep_case: frozenset = frozenset({"params"})) -> dict:
    """Lower-case keys the way Hugo does, leaving ``params`` subtrees as written."""
    out: dict = {}
    for key, value in d.items():
        k = key.lower() if isinstance(key, str) else key
        if (
            isinstance(value, dict)
            and k not in keep_case
            or k == "languages"
            and isinstance(value, dict)
        ):
            value = lower_keys(value, keep_case)
        out[k] = value
    return out


def _find_root_file(source: Path) -> Path | None:
    for name in ROOT_NAMES:
        for ext in CONFIG_EXTS:
            candidate = source / f"{name}.{ext}"
            if candidate.is_file():
                return candidate
    return None


def _load_config_dir(directory: Path) -> dict:
    """Merge every file of a ``config/<env>/`` folder into one tree."""
    tree: dict = {}
    files = sorted(p for p in directory.iterdir() if p.suffix.lstrip(".") in CONFIG_EXTS)
    for path in files:
        data = lower_keys(load_data_file(path))
        parts = path.stem.lower().split(".")
        if parts[0] in ROOT_NAMES and len(parts) == 1:
            tree = merge(tree, data)
        elif len(parts) == 1:
            tree = merge(tree, {parts[0]: _unwrap(parts[0], data)})
        elif parts[0] == "languages":
            tree = merge(tree, {"languages": {parts[1]: data}})
        else:
            # menus.ja.toml: the menus of language ja
            key, lang = parts[0], parts[1]
            tree = merge(tree, {"languages": {lang: {key: _unwrap(key, data)}}})
    return tree


def _unwrap(key: str, data: dict) -> dict:
    # A file named params.toml may itself contain a [params] table; Hugo accepts both.
    if set(data) == {key} and isinstance(data[key], dict):
        return data[key]
    return data


@dataclass(frozen=True)
class Flags:
    """Command-line settings that override the configuration."""

    environment: str = "production"
    base_url: str | None = None
    build_drafts: bool = False
    build_future: bool = False
    build_expired: bool = False
    minify: bool = False
    destination: str | None = None


@dataclass(frozen=True)
class Language:
    code: str
    title: str
    language_code: str
    weight: int
    params: dict
    menus: dict


@dataclass(frozen=True)
class SiteConfig:
    """The merged configuration: typed fields for what matome uses, ``raw`` for the rest."""

    source: Path
    raw: dict
    base_url: str
    title: str
    language: Language
    params: dict
    menus: dict
    taxonomies: dict[str, str]  # singular -> plural
    permalinks: dict[str, str]
    outputs: dict[str, list[str]]
    pager_size: int
    summary_length: int
    time_zone: str
    enable_robots_txt: bool
    enable_emoji: bool
    has_cjk_language: bool  # count CJK characters as words in pages that hold any
    markup: dict
    build_drafts: bool
    build_future: bool
    build_expired: bool
    minify: bool
    destination: str
    theme: str | list | None
    environment: str
    files: list[str] = field(default_factory=list)

    @property
    def base_path(self) -> str:
        """The path part of baseURL without its final slash: "" or "/blog"."""
        return urlsplit(self.base_url).path.rstrip("/")

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key.lower(), default)


def load_config(source: Path, flags: Flags | None = None) -> SiteConfig:
    """Read and merge every configuration source of the site at ``source``."""
    flags = flags or Flags()
    environment = flags.environment or os.environ.get("HUGO_ENVIRONMENT") or "production"
    tree: dict = {}
    files: list[str] = []
    root = _find_root_file(source)
    if root:
        tree = lower_keys(load_data_file(root))
        files.append(str(root))
    config_dir = source / "config"
    for sub in ("_default", environment):
        directory = config_dir / sub
        if directory.is_dir():
            tree = merge(tree, _load_config_dir(directory))
            files.append(str(directory))
    return _make_config(source, tree, flags, environment, files)


def _make_config(
    source: Path, tree: dict, flags: Flags, environment: str, files: list[str]
) -> SiteConfig:
    if flags.base_url is not None:
        tree["baseurl"] = flags.base_url
    language = _default_language(tree)
    params = merge(tree.get("params") or {}, language.params)
    menus = merge(tree.get("menus") or tree.get("menu") or {}, language.menus)
    taxonomies = tree.get("taxonomies")
    if taxonomies is None:
        taxonomies = dict(DEFAULT_TAXONOMIES)
    outputs = dict(DEFAULT_OUTPUTS)
    for kind, formats in (tree.get("outputs") or {}).items():
        outputs[kind.lower()] = [f.lower() for f in formats]
    pagination = tree.get("pagination") or {}
    pager_size = int(pagination.get("pagersize") or tree.get("paginate") or 10)
    base_url = str(tree.get("baseurl") or "/")
    if not base_url.endswith("/"):
        base_url += "/"
    return SiteConfig(
        source=source,
        raw=tree,
        base_url=base_url,
        title=language.title or str(tree.get("title") or ""),
        language=language,
        params=params,
        menus=menus,
        taxonomies={str(k): str(v) for k, v in taxonomies.items() if v},
        permalinks=_permalinks(tree.get("permalinks") or {}),
        outputs=outputs,
        pager_size=max(pager_size, 1),
        summary_length=int(tree.get("summarylength", 70)),
        time_zone=str(tree.get("timezone") or ""),
        enable_robots_txt=bool(tree.get("enablerobotstxt", False)),
        enable_emoji=bool(tree.get("enableemoji", False)),
        has_cjk_language=bool(tree.get("hascjklanguage", False)),
        markup=tree.get("markup") or {},
        build_drafts=flags.build_drafts or bool(tree.get("builddrafts", False)),
        build_future=flags.build_future or bool(tree.get("buildfuture", False)),
        build_expired=flags.build_expired or bool(tree.get("buildexpired", False)),
        minify=flags.minify or bool((tree.get("minify") or {}).get("minifyoutput", False)),
        destination=flags.destination or str(tree.get("publishdir") or "public"),
        theme=tree.get("theme"),
        environment=environment,
        files=files,
    )


def _default_language(tree: dict) -> Language:
    """The language matome builds: ``defaultContentLanguage`` (other languages are not built)."""
    code = str(tree.get("defaultcontentlanguage") or "en").lower()
    lang = (tree.get("languages") or {}).get(code) or {}
    return Language(
        code=code,
        title=str(lang.get("title") or ""),
        language_code=str(
            lang.get("locale") or lang.get("languagecode") or tree.get("languagecode") or code
        ),
        weight=int(lang.get("weight") or 0),
        params=lang.get("params") or {},
        menus=lang.get("menus") or lang.get("menu") or {},
    )


def _permalinks(table: dict) -> dict[str, str]:
    """Flatten Hugo's permalinks: ``{section: pattern}`` or ``{kind: {section: pattern}}``."""
    out: dict[str, str] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            if key == "page":
                out.update({k: str(v) for k, v in value.items()})
            else:
                out.update({f"{key}:{k}": str(v) for k, v in value.items()})
        else:
            out[key] = str(value)
    return out
