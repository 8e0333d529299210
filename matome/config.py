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

import dataclasses
import functools
import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from operator import attrgetter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .config_types import check_types, key_position
from .content.page_dates import date_sources
from .errors import SourceError, line_col
from .mounts import Mount, component_folders, lower_mount_keys, read_mounts, site_mounts

CONFIG_EXTS = ("toml", "yaml", "yml", "json")
ROOT_NAMES = ("hugo", "config")

# Hugo's defaults for the keys matome reads; anything else is passed through.
DEFAULT_TAXONOMIES = {"tag": "tags", "category": "categories"}
# Every top-level key matome acts on (read by the build, by its default theme, or kept for
# templates, such as ``params``). Any other key is reported once as not used.
ACTED_ON = frozenset(
    {
        # site
        "baseurl", "title", "copyright", "theme", "themesdir", "params",
        # folders
        "contentdir", "assetdir", "publishdir", "datadir",
        # content
        "taxonomies", "permalinks", "frontmatter", "summarylength", "hascjklanguage",
        "builddrafts", "buildfuture", "buildexpired", "enablegitinfo", "disablekinds",
        "uglyurls", "canonifyurls", "disablepathtolower", "disablealiases", "timezone", "enableemoji", "markup", "related", "pagination", "paginate",
        # the highlighting keys of Hugo's Pygments days, which Hugo still applies
        "pygmentsoptions", "pygmentsstyle", "pygmentsuseclasses", "pygmentscodefences",
        "pygmentscodefencesguesssyntax", "pluralizelisttitles", "capitalizelisttitles",
        # outputs
        "outputs", "outputformats", "mediatypes", "sitemap", "enablerobotstxt", "minify",
        "imaging", "menus", "menu",
        # languages and translations
        "languages", "languagecode", "defaultcontentlanguage",
        "defaultcontentlanguageinsubdir", "disablelanguages", "languagename",
        "enablemissingtranslationplaceholders", "i18ndir",
        # ref and relref
        "reflinkserrorlevel", "reflinksnotfoundurl",
        # services the theme's head uses
        "services", "privacy", "googleanalytics",
        # the URLs resources.get_remote may fetch
        "security",
        # the project's own mounts (remote modules are not fetched)
        "module",
        # matome's own settings
        "matome",
    }
)  # fmt: skip

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


def parse_data(
    text: str, fmt: str, path: str, line_offset: int = 0, tables_only: bool = True
) -> dict:
    """Parse TOML/YAML/JSON text into a dict, turning parser errors into SourceErrors.
    A data file (``tables_only=False``) may also hold a list.

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
    if not isinstance(data, dict) and (tables_only or not isinstance(data, list)):
        raise SourceError(
            path, 1 + line_offset, 1, f"expected a table of keys, got {type(data).__name__}"
        )
    return data


def _parse_yaml(text: str, path: str, line_offset: int) -> Any:
    # PyYAML is imported for a site that has YAML: a TOML site's build starts sooner.
    import yaml

    if not text.strip():
        return {}
    try:
        return yaml.load(text, Loader=_safe_loader())
    except yaml.YAMLError as e:
        line, col = _yaml_error_position(e, text)
        problem = getattr(e, "problem", None) or str(e)
        raise SourceError(path, line + line_offset, col, f"invalid YAML: {problem}") from e


@functools.cache
def _safe_loader() -> type:
    import yaml

    class SafeLoader(yaml.SafeLoader):
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

    # YAML 1.2's booleans, as Hugo reads YAML: yes, no, on and off are text (``draft: yes``
    # is the string "yes", which Hugo reads as false).
    SafeLoader.yaml_implicit_resolvers = {
        first: [r for r in resolvers if r[0] != "tag:yaml.org,2002:bool"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    SafeLoader.add_implicit_resolver(
        "tag:yaml.org,2002:bool",
        re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
        list("tTfF"),
    )
    return SafeLoader


def _yaml_error_position(error: Any, text: str) -> tuple[int, int]:
    import yaml

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


def _load_config_dir(directory: Path, origins: dict[str, Path]) -> dict:
    """Merge every file of a ``config/<env>/`` folder into one tree; ``origins`` is told
    which file set each top-level key."""
    tree: dict = {}
    files = sorted(
        p for p in directory.iterdir() if p.suffix.lstrip(".") in CONFIG_EXTS and p.is_file()
    )
    for path in files:
        data = lower_keys(load_data_file(path))
        parts = path.stem.lower().split(".")
        if parts[0] in ROOT_NAMES and len(parts) == 1:
            tree = merge(tree, data)
            origins.update(dict.fromkeys(data, path))
            continue
        if len(parts) == 1:
            tree = merge(tree, {parts[0]: _unwrap(parts[0], data)})
        elif parts[0] == "languages":
            tree = merge(tree, {"languages": {parts[1]: data}})
        else:
            # menus.ja.toml: the menus of language ja
            key, lang = parts[0], parts[1]
            tree = merge(tree, {"languages": {lang: {key: _unwrap(key, data)}}})
        origins[parts[0] if len(parts) == 1 else "languages"] = path
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
    """One language of ``[languages]`` (Hugo's ``.Language``)."""

    code: str  # the key in [languages]: "en", "pt-br"
    title: str
    language_code: str  # ``locale`` or ``languageCode``, else the code
    weight: int
    params: dict
    menus: dict
    language_name: str = ""  # ``label`` or ``languageName``
    content_dir: str = ""  # this language's own ``contentDir``; "" for the site's
    disabled: bool = False
    # The URL path before this language's pages: "" at the root, "/fr" in its subdir.
    prefix: str = ""

    def __str__(self) -> str:
        return self.code

    # --- template API (Hugo's names) -------------------------------------------------
    lang = property(attrgetter("code"))
    label = property(attrgetter("language_name"))
    locale = property(attrgetter("language_code"))


@dataclass(frozen=True)
class SiteConfig:
    """The merged configuration: typed fields for what matome uses, ``raw`` for the rest."""

    source: Path
    raw: dict
    base_url: str
    title: str
    language: Language  # the language this configuration builds
    params: dict
    menus: dict
    taxonomies: dict[str, str]  # singular -> plural
    permalinks: tuple[PermalinkRule, ...]  # [permalinks], in the order given
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
    # [frontmatter]: where each of date, lastmod, publishdate and expirydate comes from.
    front_matter_dates: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enable_git_info: bool = False
    disable_kinds: frozenset[str] = frozenset()  # home, page, section, taxonomy, term, rss, ...
    ugly_urls: bool | dict = False  # uglyURLs: for every page, or {section: bool}
    # canonifyURLs: root-relative URLs in HTML made absolute after rendering, and the
    # relative URLs of pages written without the baseURL's path (it comes back then).
    canonify_urls: bool = False
    # disablePathToLower: paths made from file, folder, section, slug, title and term names
    # (and ``urlize``) keep their case.
    disable_path_to_lower: bool = False
    # disableAliases: no redirect page for front matter aliases (pagers' page/1/ stay).
    disable_aliases: bool = False
    disable_pager_aliases: bool = False  # [pagination] disableAliases: no page/1/ redirect
    files: list[str] = field(default_factory=list)
    # Every language built, in Hugo's order (weight, then code; the language itself when
    # the site has one); ``language`` is one of them.
    languages: tuple[Language, ...] = ()
    default_language: str = "en"  # ``defaultContentLanguage``
    # Codes of the languages in [languages] marked ``disabled``: their content is left out.
    disabled_languages: frozenset[str] = frozenset()
    # ``i18n/`` strings: language code -> message id -> {plural form: text}
    translations: dict = field(default_factory=dict)
    # The folders of each component ([[module.mounts]], else the defaults).
    mounts: tuple[Mount, ...] = ()

    @property
    def multilingual(self) -> bool:
        """Whether pages go to language folders (``/fr/``): several languages, or
        ``defaultContentLanguageInSubdir``."""
        return len(self.languages) > 1 or bool(self.language.prefix)

    # Keys matome does not use and values read as another type, each at its place.
    warnings: list[SourceError] = field(default_factory=list)

    @property
    def base_path(self) -> str:
        """The path part of baseURL without its final slash: "" or "/blog"."""
        return urlsplit(self.base_url).path.rstrip("/")

    @property
    def rel_base_path(self) -> str:
        """What starts a relative URL of the site (``rel_permalink``): the base path, or
        nothing with ``canonifyURLs``, whose absolute URLs put it back (Hugo)."""
        return "" if self.canonify_urls else self.base_path

    def get(self, key: str, default: Any = None) -> Any:
        return self.raw.get(key.lower(), default)


def load_config(source: Path, flags: Flags | None = None) -> SiteConfig:
    """Read and merge every configuration source of the site at ``source``."""
    flags = flags or Flags()
    environment = flags.environment or os.environ.get("HUGO_ENVIRONMENT") or "production"
    tree: dict = {}
    files: list[str] = []
    origins: dict[str, Path] = {}
    root = _find_root_file(source)
    if root:
        tree = lower_keys(load_data_file(root))
        files.append(str(root))
        origins.update(dict.fromkeys(tree, root))
    config_dir = source / "config"
    for sub in ("_default", environment):
        directory = config_dir / sub
        if directory.is_dir():
            tree = merge(tree, _load_config_dir(directory, origins))
            files.append(str(directory))
    errors, warnings = check_types(tree, origins.get)
    if errors:
        raise errors[0]
    warnings += _unused_keys(tree, origins)
    config = _make_config(source, tree, flags, environment, files, origins.get("module"))
    config.warnings.extend(warnings)
    return config


def _key_place(origins: dict[str, Path], key: str) -> tuple[str, int, int]:
    file = origins.get(key)
    return (str(file), *key_position(file, [key])) if file else ("config", 1, 1)


def _unused_keys(tree: dict, origins: dict[str, Path]) -> list[SourceError]:
    """A warning for each top-level key matome does not act on, where it is set."""
    warnings = []
    for key in tree:
        if isinstance(key, str) and key in ACTED_ON:
            continue
        file = origins.get(key)
        path, (line, col) = (
            (str(file), key_position(file, [str(key)])) if file else ("config", (1, 1))
        )
        warnings.append(SourceError(path, line, col, f"{key!r} is not used by matome", "warning"))
    for table, used in _USED_WITHIN.items():
        file = origins.get(table)
        found = tree.get(table)
        for key in found if isinstance(found, dict) else ():
            if key != used:
                line, col = key_position(file, [table, str(key)]) if file else (1, 1)
                message = f"'{table}.{key}' is not used by matome"
                warnings.append(SourceError(str(file or "config"), line, col, message, "warning"))
    return warnings


# Tables of which matome reads one key: the project's own mounts (not imports or
# hugoVersion), and the URLs resources.get_remote may fetch (matome runs no program).
_USED_WITHIN = {"module": "mounts", "security": "http"}


def _make_config(
    source: Path,
    tree: dict,
    flags: Flags,
    environment: str,
    files: list[str],
    module_file: Path | None = None,
) -> SiteConfig:
    if flags.base_url is not None:
        tree["baseurl"] = flags.base_url
    languages, default, disabled = _languages(tree)
    language = next(lang for lang in languages if lang.code == default)
    declared, errors = read_mounts(
        lower_mount_keys(tree), source, module_file, [lang.code for lang in languages]
    )
    if errors:
        raise errors[0]
    mounts = site_mounts(tree, source, declared)
    params = merge(tree.get("params") or {}, language.params)
    menus = merge(tree.get("menus") or tree.get("menu") or {}, language.menus)
    taxonomies = tree.get("taxonomies")
    if taxonomies is None:
        taxonomies = dict(DEFAULT_TAXONOMIES)
    outputs = dict(DEFAULT_OUTPUTS)
    for kind, formats in (tree.get("outputs") or {}).items():
        formats = [formats] if isinstance(formats, str) else formats
        outputs[str(kind).lower()] = [str(f).lower() for f in formats]
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
        front_matter_dates=date_sources(tree.get("frontmatter") or {}),
        enable_git_info=bool(tree.get("enablegitinfo", False)),
        disable_kinds=frozenset(str(k).lower() for k in tree.get("disablekinds") or []),
        ugly_urls=tree.get("uglyurls") or False,
        canonify_urls=bool(tree.get("canonifyurls", False)),
        disable_path_to_lower=bool(tree.get("disablepathtolower", False)),
        disable_aliases=bool(tree.get("disablealiases", False)),
        disable_pager_aliases=bool(pagination.get("disablealiases", False)),
        files=files,
        languages=languages,
        default_language=default,
        disabled_languages=disabled,
        translations=load_translations(mounts),
        mounts=mounts,
    )


def language_config(config: SiteConfig, language: Language) -> SiteConfig:
    """The configuration one language's pages are built with: its title, params and menus
    over the site's (Hugo's per-language settings)."""
    if language is config.language:
        return config
    raw = config.raw
    return dataclasses.replace(
        config,
        title=language.title or str(raw.get("title") or ""),
        language=language,
        params=merge(raw.get("params") or {}, language.params),
        menus=merge(raw.get("menus") or raw.get("menu") or {}, language.menus),
    )


def _languages(tree: dict) -> tuple[tuple[Language, ...], str, frozenset[str]]:
    """The languages built (Hugo's order), the default one's code, the disabled ones' codes.

    Without ``[languages]`` the site has one language, ``defaultContentLanguage``; a
    default language missing from ``[languages]`` is built with the site's settings."""
    default = str(tree.get("defaultcontentlanguage") or "en").lower()
    table = {str(k).lower(): v for k, v in (tree.get("languages") or {}).items()}
    in_subdir = bool(tree.get("defaultcontentlanguageinsubdir", False))
    disabled = frozenset(
        code for code, lang in table.items() if isinstance(lang, dict) and lang.get("disabled")
    )
    codes = [code for code in table if code not in disabled]
    if default not in codes:
        codes.append(default)
    several = len(codes) > 1
    languages = []
    for code in codes:
        lang = table.get(code)
        lang = lang if isinstance(lang, dict) else {}
        in_folder = in_subdir or (several and code != default)
        languages.append(
            Language(
                code=code,
                title=str(lang.get("title") or ""),
                language_code=str(
                    lang.get("locale")
                    or lang.get("languagecode")
                    or tree.get("languagecode")
                    or code
                ),
                weight=int(lang.get("weight") or 0),
                params=lang.get("params") or {},
                menus=lang.get("menus") or lang.get("menu") or {},
                language_name=str(lang.get("label") or lang.get("languagename") or ""),
                content_dir=str(lang.get("contentdir") or ""),
                prefix=f"/{code}" if in_folder else "",
            )
        )
    return tuple(sorted(languages, key=_language_order)), default, disabled


def _language_order(language: Language) -> tuple:
    """Hugo's order of languages: by weight (unset last), then by code."""
    return (language.weight or float("inf"), language.code)


def load_translations(mounts: tuple[Mount, ...]) -> dict:
    """The ``i18n/`` strings of the site (its i18n mounts, the first declared winning) and of
    the default theme (the site's win)."""
    from .render.environment import theme_dir
    from .render.i18n import read_translations

    site = list(reversed(component_folders(mounts, "i18n")))
    return read_translations([theme_dir() / "i18n", *site])


@dataclass(frozen=True)
class PermalinkRule:
    """One pattern of ``[permalinks]``: for the pages of one kind below a content path."""

    kind: str  # page, section, taxonomy or term
    path: str  # "posts", "docs/guide", "tags" (lower case); "": the pages at the top
    pattern: str

    def applies_to(self, kind: str, path: str) -> bool:
        """Whether the rule is for a page of ``kind`` at the content path ``path`` (lower
        case, no slashes around: "posts/sub/a", a term "tags/go"). A rule's path takes in
        itself and everything below it, as Hugo's ``/{posts,posts/**}``; the empty one
        (Hugo's ``/*``) what is directly under the content folder."""
        if kind != self.kind:
            return False
        if not self.path:
            return "/" not in path
        return path == self.path or path.startswith(self.path + "/")


PERMALINK_KINDS = ("page", "section", "taxonomy", "term")


def _permalinks(table: dict) -> tuple[PermalinkRule, ...]:
    """Hugo's ``[permalinks]``: ``section = pattern`` is for the section's pages and terms
    (a taxonomy's name is a section there), ``[permalinks.KIND] section = pattern`` for one
    kind."""
    rules: list[PermalinkRule] = []
    for key, value in table.items():
        key = str(key).lower()
        if isinstance(value, dict):
            if key in PERMALINK_KINDS:
                rules += [PermalinkRule(key, _rule_path(k), str(v)) for k, v in value.items()]
        else:
            rules += [PermalinkRule(kind, _rule_path(key), str(value)) for kind in ("page", "term")]
    return tuple(rules)


def _rule_path(key: Any) -> str:
    return str(key).strip(" /").lower()


def permalink_pattern(config: SiteConfig, kind: str, path: str) -> str | None:
    """The ``[permalinks]`` pattern for a page of ``kind`` at the content path ``path``;
    of two rules that apply, the one for the deeper path (Hugo takes either)."""
    path = path.strip("/").lower()
    found = [r for r in config.permalinks if r.applies_to(kind, path)]
    return max(found, key=lambda r: len(r.path)).pattern if found else None
