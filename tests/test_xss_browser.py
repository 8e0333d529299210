"""Safe by default: XSS payloads in every untrusted place, built and opened in Chromium.

What is trusted and what is not, as decided here:

- **Untrusted, must never execute**: the arguments of comment shortcodes
  (``matomeQuote`` and ``matomeSummary``: ``body``, ``userName``,
  ``createdAt``, ``color``), front matter values (title, tags, description,
  linkTitle, params, feature image) and configuration values (site title,
  language code, params, author links, menu names and URLs). Comment bodies
  are strangers' words; front matter and configuration are data that
  templates print, and printing data must never turn it into markup.
- **Trusted author content**: the Markdown of a page, that is its body and its
  front matter ``summary`` (which Hugo renders as Markdown exactly like the
  body). As in Hugo, with ``markup.goldmark.renderer.unsafe = true`` (what the
  real site sets) the author's own raw HTML is kept, scripts included (one page
  of the main site checks that its script runs); with Hugo's default
  ``unsafe = false`` raw HTML and script URLs in the body are left out
  (``test_markdown_body_payloads_do_nothing_with_hugo_defaults``). The HTML
  pages print ``summary`` only as plain text (the meta description), so the
  browser test checks it like the untrusted values; RSS descriptions carry it
  as the author's HTML.
- ``[matome] sanitize = false`` makes comment bodies trusted too
  (``test_sanitize_false_trusts_comment_html``).

Each payload is written in the style of the OWASP XSS filter evasion cheat
sheet and PortSwigger's XSS cheat sheet, and calls a marker unique to the
payload *and* the place it was put (``xss17_title``): an ``alert``, a
``window.__xss…`` global, a ``console.log`` or a request. The browser listens
for dialogs, console messages and requests, reads the globals of every frame,
and scans every frame's DOM for script-bearing markup (event handler
attributes, ``javascript:``/``data:`` URLs, ``srcdoc``, ``<script>``,
``<iframe>``, ``<base>``, ``<meta http-equiv>``...) that would run on a click;
script links it finds are clicked. ``test_the_detector_sees_raw_payloads_run``
shows the detector is not blind: the same payloads pasted raw into a page are
caught.

Chromium is Debian's (``/usr/bin/chromium``); the test never downloads a
browser and fails, rather than skips, when it is missing.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import html.parser
import http.server
import json
import re
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import pytest
import tomli_w
from browser import CHROMIUM_ARGS, require_chromium

from matome.render.functions import safe_url

CONCURRENCY = 4  # pages open at once in one browser
SETTLE_MS = 100  # after "load": autofocus, toggle and animation events, a refresh
SITE_URL = "https://example.org/"

# --- the payloads ------------------------------------------------------------------
# "{js}" becomes a quote-free JavaScript expression that reports the payload and its
# place, "{marker}" the bare marker, "{b64}" the base64 of "<script>{js}</script>",
# "{b64js}" the base64 of the expression. "\x00" is a NUL.
PAYLOADS: list[str] = [
    # script elements
    "<script>{js}</script>",
    "<SCRIPT SRC=/{marker}.js></SCRIPT>",
    "<ScRiPt>{js}</sCrIpT>",
    "<<SCRIPT>{js}//<</SCRIPT>",
    "<scr<script>ipt>{js}</scr</script>ipt>",
    "<script\x00>{js}</script>",
    "<scr\x00ipt>{js}</scr\x00ipt>",
    "<script/xss>{js}</script>",
    "<svg><script>{js}</script></svg>",
    "<svg><script href=data:,{js} />",
    # event handlers
    "<img src=x onerror={js}>",
    '<IMG SRC=/ onerror="{js}"></img>',
    '<img """><SCRIPT>{js}</SCRIPT>">',
    "<img src=x onerror=eval(atob(/{b64js}/.source))>",
    "<img src=x onerror=\\u0061lert(/{marker}/)>",
    '<img srcset=",,,,,x" onerror={js}>',
    "<image src=x onerror={js}>",
    "<svg onload={js}>",
    "<svg/onload={js}>",
    "<body onload={js}>",
    "<body onpageshow={js}>",
    "<details open ontoggle={js}>",
    "<video><source onerror={js}></video>",
    "<video src=x onerror={js}>",
    "<audio src=x onerror={js}>",
    "<input onfocus={js} autofocus>",
    "<select autofocus onfocus={js}>",
    "<textarea autofocus onfocus={js}>",
    "<xss id=x tabindex=1 onfocus={js} autofocus>",
    "<marquee onstart={js}>",
    "<svg><animate onbegin={js} attributeName=x dur=1s>",
    "<iframe onload={js}>",
    "<object data=x onerror={js}>",
    "<style onload={js}></style>",
    # javascript: and data: URLs, raw and in Markdown
    '<a href="javascript:{js}">クリック</a>',
    '<a href="JaVaScRiPt:{js}">x</a>',
    '<a href="jav&#x09;ascript:{js}">x</a>',
    '<a href="jav\tascript:{js}">x</a>',
    '<a href="java\x00script:{js}">x</a>',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;{js}">x</a>',
    '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;{js}">x</a>',
    '<a href=" &#14;  javascript:{js}">x</a>',
    '<a href="data:text/html;base64,{b64}">x</a>',
    "<IMG SRC=jAvascript:{js}>",
    '<IMG SRC="jav&#x0D;ascript:{js};">',
    "[クリック](javascript:{js})",
    "[x](JAVASCRIPT:{js})",
    "[x](&#106;avascript:{js})",
    "![x](javascript:{js})",
    "[x](data:text/html;base64,{b64})",
    "<javascript:{js}>",
    '[x](https://example.invalid/ "t\\" onmouseover={js} x=\\"")',
    "<iframe src=javascript:{js}></iframe>",
    "<iframe srcdoc=&lt;script&gt;{js}&lt;/script&gt;></iframe>",
    "<object data=data:text/html;base64,{b64}></object>",
    "<embed src=data:text/html;base64,{b64}>",
    "<form action=javascript:{js}><button>x</button></form>",
    "<button formaction=javascript:{js}>x</button>",
    "<math><maction actiontype=statusline xlink:href=javascript:{js}>x</maction></math>",
    "<svg><a xlink:href=javascript:{js}><text y=20>x</text></a></svg>",
    "<svg><animate xlink:href=#a attributeName=href values=javascript:{js} />"
    "<a id=a><text y=20>x</text></a></svg>",
    # namespace confusion and mutation XSS
    "<math><mtext><table><mglyph><style><img src=x onerror={js}>",
    "<svg><style><img src=x onerror={js}></style></svg>",
    '<noscript><p title="</noscript><img src=x onerror={js}>">',
    '<!--<img src="--><img src=x onerror={js}//">',
    "<![CDATA[><img src=x onerror={js}>]]>",
    # CSS
    "<div style=background-image:url(javascript:{js})>x</div>",
    "<div style=width:expression({js})>x</div>",
    "<STYLE>li {list-style-image: url(javascript:{js});}</STYLE><UL><LI>x</UL>",
    "<table background=javascript:{js}><tr><td>x</td></tr></table>",
    # navigation and document hijacking
    "<meta http-equiv=refresh content=0;url=javascript:{js}>",
    "<meta http-equiv=refresh content=0;url=data:text/html;base64,{b64}>",
    "<base href=javascript:{js}//>",
    "<base href=/{marker}/>",
    "<link rel=stylesheet href=/{marker}.css>",
    # breaking out of attributes, elements and other contexts
    '"><script>{js}</script>',
    "'><img src=x onerror={js}>",
    '" onmouseover={js} x="',
    "' autofocus onfocus={js} x='",
    "</textarea><script>{js}</script>",
    "</title><script>{js}</script>",
    "</style><script>{js}</script>",
    "</script><script>{js}</script>",
    "--><script>{js}</script><!--",
    "]]><script>{js}</script>",
    # template injection: printed as text, never evaluated
    "{{ '<scr'~'ipt>{js}</scr'~'ipt>' | safe }}",
    "{% raw %}{{ 7*7 }}{% endraw %}{{ lipsum.__globals__ }}",
    "${{js}}#{{js}}<%= {js} %>",
]

# Shown to the reader exactly as written: what real comments contain.
TEXT_PAYLOADS = ["<script_name>", "Vec<T>", "<T>", "a < b && c > d", "{{ 7*7 }}"]

# matomeQuote's ``color``: only a plain CSS colour may reach the style attribute.
COLOR_PAYLOADS = [
    "red;background:url(javascript:{js})",
    "red;background-image:url(data:text/html;base64,{b64})",
    'red" onmouseover="{js}" x="',
    "red'><script>{js}</script>",
    "expression({js})",
    "url(javascript:{js})",
    "#fff;}</style><script>{js}</script>",
    "rgb(0,0,0);behavior:url(/{marker}.htc)",
    "var(--x);--y:url(/{marker}.png)",
    "red\\;background:url(/{marker}.png)",
]

# Config values that templates put in href: Jinja's autoescape keeps them in the
# attribute but, unlike Go's html/template (which prints "#ZgotmplZ"), not out of it.
CONFIG_URLS = {
    "menu": "javascript:{js}",
    "menu2": "JavaScript:{js}",
    "menu3": "data:text/html;base64,{b64}",
    "link": "javascript:{js}",
}


def js_for(marker: str, n: int) -> str:
    """A quote-free expression reporting ``marker``: a dialog, a global, a console line or a request."""
    return [
        f"alert(/{marker}/)",
        f"window.__{marker}=1",
        f"console.log(/{marker}/)",
        f"fetch(/{marker}/.source)",
    ][n % 4]


def fill(template: str, marker: str, n: int) -> str:
    js = js_for(marker, n)
    b64 = base64.b64encode(f"<script>{js}</script>".encode()).decode()
    b64js = base64.b64encode(js.encode()).decode().rstrip("=")
    return (
        template.replace("{js}", js)
        .replace("{b64}", b64)
        .replace("{b64js}", b64js)
        .replace("{marker}", marker)
    )


def sc_arg(value: str) -> str:
    """``value`` as a shortcode argument that Hugo's grammar reads back unchanged."""
    value = value.replace("\x00", "\ufffd")  # a NUL would make the content file binary
    if not re.search(r'["\\\n]', value):
        return f'"{value}"'
    if "`" not in value:
        return f"`{value}`"
    if "\\" not in value and "\n" not in value:
        return '"' + value.replace('"', '\\"') + '"'
    raise ValueError(f"cannot quote {value!r} as a shortcode argument")


# --- the test sites -------------------------------------------------------------------
@dataclass
class Expected:
    texts: dict[str, list[str]] = field(default_factory=dict)  # page -> harmless text shown
    comments: dict[str, int] = field(default_factory=dict)  # page -> comment cards
    titles: list[str] = field(default_factory=list)  # every article title as written
    plain_feed: list[str] = field(default_factory=list)  # titles whose RSS summary is comments
    tags: list[str] = field(default_factory=list)
    site_title: str = ""
    placements: dict[str, int] = field(default_factory=dict)  # place -> payloads put there


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def call(name: str, **args: str) -> str:
    return "{{<" + name + " " + " ".join(f"{k}={sc_arg(v)}" for k, v in args.items()) + ">}}"


def site_config(*, unsafe: bool, expected: Expected | None = None) -> dict:
    """The configuration, with a payload in every value a template prints."""
    counter = iter(range(len(PAYLOADS)))

    def p(place: str) -> str:
        i = next(counter) * 7 % len(PAYLOADS)
        if expected is not None:
            expected.placements[place] = 1
        return fill(PAYLOADS[i], f"xss{i}_{place}", i)

    title = "テストサイト " + p("ctitle")
    if expected is not None:
        expected.site_title = title
    return {
        "baseURL": SITE_URL,
        "title": title,
        "languageCode": "ja" + p("clang"),
        "defaultContentLanguage": "ja",
        "enableRobotsTXT": True,
        "summaryLength": 10,
        "taxonomies": {"tag": "tags"},
        "outputs": {"home": ["HTML", "RSS", "JSON"]},
        "markup": {"goldmark": {"renderer": {"unsafe": unsafe}}},
        "pagination": {"pagerSize": 50},
        "params": {
            "description": p("cdesc"),
            "copyright": p("ccopy"),
            "dateFormat": "2006/01/02",
            "mainSections": ["posts"],
            "author": {
                "name": p("cname"),
                "headline": p("chead"),
                "bio": p("cbio"),
                "links": [
                    {"link": "https://example.invalid/" + p("clinkurl")},
                    {p("clinkname"): "https://example.invalid/"},
                ],
            },
        },
        "menus": {
            "main": [
                {"name": p("cmenu"), "url": "/posts/", "weight": 1},
                {"name": "タグ", "pageRef": "tags", "weight": 2},
            ]
        },
    }


def make_main_site(root: Path) -> tuple[Path, Expected]:
    """Every payload in every untrusted place, with the real site's ``unsafe = true``."""
    site = root / "site"
    expected = Expected()
    write(site / "hugo.toml", tomli_w.dumps(site_config(unsafe=True, expected=expected)))
    write(site / "content/posts/_index.md", '+++\ntitle = "記事"\n+++\n')

    def place(i: int, where: str) -> str:
        expected.placements[where] = expected.placements.get(where, 0) + 1
        return fill(PAYLOADS[i], f"xss{i}_{where}", i)

    for i in range(len(PAYLOADS)):
        title = f"記事{i}番 " + place(i, "title")
        # A backslash in a term is a path separator on Windows: refused (test_containment.py).
        tag = f"タグ{i}番 " + (place(i, "tag") if "\\" not in PAYLOADS[i] else "")
        front = {
            "title": title,
            "date": f"2025-01-01T00:{i // 60:02d}:{i % 60:02d}+09:00",
            "tags": [tag],
            "description": f"説明{i}番 " + place(i, "desc"),
            "linkTitle": place(i, "linktitle"),
            "note": place(i, "param"),
            "featureimage": "https://example.invalid/a.png?" + place(i, "image"),
        }
        if i % 2:  # the others get Hugo's automatic summary, comments included
            front["summary"] = f"概要{i}番 " + place(i, "summary")
        else:
            expected.plain_feed.append(title)
        summary = call(
            "matomeSummary",
            body=f"要約前{i}番<br>" + place(i, "sbody") + f"<br>要約後{i}番",
            userName=place(i, "suser"),
            createdAt=place(i, "sdate"),
            color=place(i, "scolor"),
        )
        quote_ = call(
            "matomeQuote",
            body=f"「前置き{i}番」<br>" + place(i, "qbody") + f"<br>「後書き{i}番」",
            userName=place(i, "quser"),
            createdAt=place(i, "qdate"),
            color=place(i, "qcolor"),
        )
        body = f"本文{i}番です。\n\n{summary}\n\n{quote_}\n\n{{{{< param note >}}}}\n"
        write(site / f"content/posts/p{i:03d}.md", f"+++\n{tomli_w.dumps(front)}+++\n{body}")
        page = f"posts/p{i:03d}/"
        expected.texts[page] = [
            f"記事{i}番",
            f"前置き{i}番",
            f"後書き{i}番",
            f"要約前{i}番",
            f"要約後{i}番",
        ]
        expected.comments[page] = 1
        expected.titles.append(title)
        expected.tags.append(tag)

    calls = []
    for j, template in enumerate(COLOR_PAYLOADS):
        expected.placements["qcolor"] += 1
        color = fill(template, f"xss{j}_color", j)
        calls.append(call("matomeQuote", body=f"色{j}番のコメント", userName="u", color=color))
    for j, text in enumerate(TEXT_PAYLOADS):
        calls.append(call("matomeQuote", body=f"テキスト{j}番 {text} の話", userName="u"))
    title = "色とテキスト"
    write(
        site / "content/posts/colors.md",
        f'+++\ntitle = "{title}"\ndate = 2024-12-31\n+++\n' + "\n\n".join(calls) + "\n",
    )
    expected.texts["posts/colors/"] = [f"色{j}番のコメント" for j in range(len(COLOR_PAYLOADS))] + [
        f"テキスト{j}番 {text} の話" for j, text in enumerate(TEXT_PAYLOADS)
    ]
    expected.comments["posts/colors/"] = len(calls)
    expected.titles.append(title)
    expected.plain_feed.append(title)
    expected.texts["tags/"] = [f"タグ{i}番" for i in range(len(PAYLOADS))]

    # The page body is the author's own: with unsafe = true its raw HTML is kept, as in Hugo.
    write(
        site / "content/trusted.md",
        '+++\ntitle = "作者の本文"\ndate = 2024-12-30\n+++\n'
        '作者の<span id="trusted-raw">生のHTML</span>です。\n\n'
        "<script>window.__trusted_body = 1</script>\n",
    )
    expected.titles.append("作者の本文")
    return site, expected


def make_body_site(root: Path) -> Path:
    """Every payload in page bodies (trusted Markdown), with Hugo's default ``unsafe = false``."""
    site = root / "body-site"
    write(site / "hugo.toml", tomli_w.dumps(site_config(unsafe=False)))
    per_page = 10
    for start in range(0, len(PAYLOADS), per_page):
        parts = []
        for i in range(start, min(start + per_page, len(PAYLOADS))):
            payload = fill(PAYLOADS[i], f"xss{i}_md", i).replace("\x00", "&#0;")
            parts.append(f"段落{i}番 {payload}\n\n{payload}")
        write(
            site / f"content/posts/b{start:03d}.md",
            f'+++\ntitle = "本文{start}"\ndate = 2025-01-01\n+++\n' + "\n\n".join(parts) + "\n",
        )
    return site


def make_config_url_site(root: Path) -> Path:
    """Script URLs in the configuration values that templates put in ``href``."""
    site = root / "url-site"
    urls = {k: fill(v, f"xss{n}_c{k}url", n) for n, (k, v) in enumerate(CONFIG_URLS.items())}
    config = site_config(unsafe=True)
    config["menus"]["main"] += [
        {"name": f"メニュー{k}", "url": urls[k], "weight": 10 + n}
        for n, k in enumerate(("menu", "menu2", "menu3"))
    ]
    config["params"]["author"]["links"].append({"github": urls["link"]})
    write(site / "hugo.toml", tomli_w.dumps(config))
    write(site / "content/posts/a.md", '+++\ntitle = "a"\ndate = 2025-01-01\n+++\nbody\n')
    return site


def matome_build(site: Path, dest: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "matome", "build", "-s", str(site), "-d", str(dest)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr


# --- serving and browsing -------------------------------------------------------------
class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


class Server:
    """A folder over HTTP on 127.0.0.1, on a free port, in a thread."""

    def __init__(self, root: Path):
        handler = functools.partial(QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


# Script-bearing markup in a frame: what runs on load or on a click. Handlers and
# elements count when they carry a payload's marker (the theme's own may not);
# script and data URLs, srcdoc and CSS script URLs count wherever they are.
DOM_SCAN = r"""() => {
  const found = [];
  const urlAttrs = new Set(["href", "src", "action", "formaction", "data", "xlink:href",
    "poster", "background", "srcset", "ping", "codebase", "dynsrc", "lowsrc", "values",
    "to", "from", "by", "cite", "longdesc", "usemap", "manifest"]);
  const scriptUrl = /^(javascript|vbscript|livescript):/i;
  const dataUrl = /^data:(?!image\/(png|gif|jpe?g|webp|avif)[;,])/i;
  const payload = /xss|atob|eval|\\u/;
  const short = (el) => el.outerHTML.slice(0, 240);
  for (const el of document.querySelectorAll("*")) {
    const tag = el.localName.toLowerCase();
    for (const a of el.attributes) {
      const name = a.name.toLowerCase();
      const value = a.value.replace(/[\x00-\x20]+/g, "");
      if (name.startsWith("on") && payload.test(a.value)) found.push(`${name} handler: ${short(el)}`);
      else if (urlAttrs.has(name) && scriptUrl.test(value)) found.push(`script URL in ${name}: ${short(el)}`);
      else if (urlAttrs.has(name) && dataUrl.test(value) && !(tag === "link" && /icon/.test(el.rel)))
        found.push(`data URL in ${name}: ${short(el)}`);
      else if (name === "srcdoc") found.push(`srcdoc: ${short(el)}`);
      else if (name === "style" && /url\(|expression|behavior/i.test(value) && /xss/.test(a.value))
        found.push(`style: ${short(el)}`);
    }
    const code = tag === "script" && !/json/.test(el.type || "");
    if (code && (/xss/.test(el.textContent) || /xss/.test(el.getAttribute("src") || "")))
      found.push(`script: ${short(el)}`);
    else if (["iframe", "frame", "frameset", "object", "embed", "applet", "base", "form"].includes(tag)
             && /xss/.test(el.outerHTML))
      found.push(`${tag}: ${short(el)}`);
    else if (tag === "meta" && el.httpEquiv && /xss|javascript:|data:/i.test(el.content))
      found.push(`meta http-equiv: ${short(el)}`);
    else if (tag === "link" && !/canonical|alternate/.test(el.rel) && /xss/.test(el.getAttribute("href") || ""))
      found.push(`link: ${short(el)}`);
    else if (tag === "style" && /xss/.test(el.textContent))
      found.push(`style element: ${short(el)}`);
  }
  return found;
}"""

# Click every script link, so what would run on a reader's click runs here.
CLICK_SCRIPT_LINKS = r"""() => {
  let n = 0;
  for (const el of document.querySelectorAll("a, area")) {
    const href = (el.getAttribute("href") || el.getAttribute("xlink:href") || "").replace(/[\x00-\x20]+/g, "");
    if (/^(javascript|vbscript):/i.test(href)) {
      el.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
      n++;
    }
  }
  return n;
}"""

GLOBALS = "() => Object.getOwnPropertyNames(window).filter((n) => n.startsWith('__xss'))"
TRUSTED = "() => window.__trusted_body === 1 && !!document.getElementById('trusted-raw')"
# Everything about one frame in one round trip; script links are clicked last.
INSPECT = f"""(click) => ({{
  markup: ({DOM_SCAN})(),
  globals: ({GLOBALS})(),
  text: document.body ? document.body.innerText : "",
  comments: document.querySelectorAll("article.comment").length,
  trusted: ({TRUSTED})(),
  clicked: click ? ({CLICK_SCRIPT_LINKS})() : 0,
}})"""


@dataclass
class Visit:
    executed: list[str] = field(default_factory=list)  # dialogs, console, requests, globals
    markup: list[str] = field(default_factory=list)  # script-bearing markup in the DOM
    text: str = ""
    comments: int = 0
    trusted: bool = False
    errors: list[str] = field(default_factory=list)  # uncaught JS errors


def browse(root: Path, paths: list[str], *, click: bool = False) -> dict[str, Visit]:
    """Open every page of ``root`` in Chromium and record what payloads did."""
    require_chromium()
    with Server(root) as server:
        return asyncio.run(_browse(server.base, paths, click))


async def _browse(base: str, paths: list[str], click: bool) -> dict[str, Visit]:
    from playwright.async_api import async_playwright

    results: dict[str, Visit] = {}
    todo = list(paths)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=require_chromium(), args=CHROMIUM_ARGS)
        try:

            async def worker() -> None:
                context = await browser.new_context()
                context.set_default_timeout(20_000)
                page = await context.new_page()
                state = {"visit": Visit(), "target": ""}

                async def on_dialog(dialog) -> None:
                    state["visit"].executed.append(f"dialog {dialog.type}: {dialog.message}")
                    await dialog.dismiss()

                def on_console(message) -> None:
                    if "xss" in message.text:
                        state["visit"].executed.append(f"console: {message.text}")

                async def on_route(route) -> None:
                    url = route.request.url
                    if not url.startswith(base):
                        await route.abort()  # no network: a remote feature image, example.org
                    elif "xss" in unquote(url) and url != state["target"]:
                        state["visit"].executed.append(f"request: {url}")  # the payloads' own
                        await route.abort()
                    else:
                        await route.continue_()

                page.on("dialog", on_dialog)
                page.on("console", on_console)
                page.on("pageerror", lambda e: state["visit"].errors.append(str(e)))
                await page.route("**/*", on_route)
                while todo:
                    path = todo.pop()
                    state["visit"] = Visit()
                    state["target"] = base + "/".join(quote(s, safe="") for s in path.split("/"))
                    results[path] = await _visit(page, state["target"], state["visit"], click)
                await context.close()

            await asyncio.gather(*(worker() for _ in range(CONCURRENCY)))
        finally:
            await browser.close()
    return results


async def _visit(page, url: str, visit: Visit, click: bool) -> Visit:
    await page.goto(url, wait_until="load")
    await page.wait_for_timeout(SETTLE_MS)
    clicked = 0
    for frame in page.frames:
        try:
            found = await frame.evaluate(INSPECT, click)
        except Exception as e:  # a frame that went away while we looked
            visit.errors.append(f"frame {frame.url}: {e}")
            continue
        visit.markup += found["markup"]
        visit.executed += [f"global {name}" for name in found["globals"]]
        clicked += found["clicked"]
        if frame == page.main_frame:
            visit.text, visit.comments = found["text"], found["comments"]
            visit.trusted = found["trusted"]
    if clicked:  # what the clicks ran
        await page.wait_for_timeout(SETTLE_MS)
        for frame in page.frames:
            try:
                globals_ = await frame.evaluate(GLOBALS)
            except Exception as e:
                visit.errors.append(f"frame {frame.url}: {e}")
                continue
            visit.executed += [f"global {name} (after a click)" for name in globals_]
    if page.url.split("#")[0] != url:
        visit.executed.append(f"navigated to {page.url}")
    visit.executed = list(dict.fromkeys(visit.executed))
    return visit


def html_pages(out: Path) -> list[str]:
    """Every HTML page of a build, as a URL path (alias redirects checked and left out)."""
    pages = []
    for p in sorted(out.rglob("*.html")):
        text = p.read_text(encoding="utf-8")
        if len(text) < 1000 and 'http-equiv="refresh"' in text:
            target = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', text)
            assert target and target.group(1).startswith(SITE_URL), f"{p}: {text}"
            continue
        rel = p.relative_to(out).as_posix()
        pages.append(rel.removesuffix("index.html"))
    return pages


def report(visits: dict[str, Visit], attr: str) -> list[str]:
    return [f"{path}: {item}" for path, v in sorted(visits.items()) for item in getattr(v, attr)]


# --- fixtures ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def main_site(tmp_path_factory) -> tuple[Path, Expected]:
    root = tmp_path_factory.mktemp("xss")
    site, expected = make_main_site(root)
    matome_build(site, root / "public")
    return root / "public", expected


# --- the browser tests ------------------------------------------------------------------
def test_at_least_fifty_payloads_in_every_place(main_site):
    _, expected = main_site
    assert len(set(PAYLOADS)) == len(PAYLOADS) >= 50
    for place in ("qbody", "quser", "qdate", "qcolor", "sbody", "suser", "sdate", "scolor"):
        assert expected.placements[place] >= 50, place
    for place in ("title", "tag", "desc", "summary", "linktitle", "param", "image"):
        assert expected.placements[place] >= 40, place
    assert {"ctitle", "clang", "cdesc", "ccopy", "cname", "chead", "cbio", "cmenu"} <= set(
        expected.placements
    )


def test_no_payload_runs_and_every_comment_still_reads(main_site):
    """Every page of the main site in Chromium (one test, so the pages are opened once)."""
    out, expected = main_site
    visits = browse(out, html_pages(out), click=True)
    problems = []
    problems += [f"executed: {r}" for r in report(visits, "executed")]
    problems += [f"script-bearing markup: {r}" for r in report(visits, "markup")]
    problems += [f"JS error: {r}" for r in report(visits, "errors") if "xss" in r]

    # Every page was opened: the articles, the colour page and a term page per tag.
    assert set(expected.texts) <= set(visits)
    assert len(visits) >= 2 * len(PAYLOADS)

    # The harmless words around each payload are still shown, as is every comment card.
    problems += [
        f"{page}: text not shown: {text!r}"
        for page, texts in expected.texts.items()
        for text in texts
        if text not in visits[page].text
    ]
    problems += [
        f"{page}: {visits[page].comments} comment cards shown, {n} written"
        for page, n in expected.comments.items()
        if visits[page].comments != n
    ]
    # Tags that are not HTML read as text, as does a script written in a comment.
    problems += [
        f"posts/colors/: {shown!r} not shown as text"
        for shown in TEXT_PAYLOADS
        if shown not in visits["posts/colors/"].text
    ]
    if "<script>alert(/xss0_qbody/)</script>" not in visits["posts/p000/"].text:
        problems.append("posts/p000/: the script in the comment is not shown as text")

    # The page body is the author's own (as in Hugo with unsafe = true): its script runs.
    if not visits["trusted/"].trusted:
        problems.append("trusted/: the author's raw HTML in the body was not kept")
    problems += [
        f"{p}: trusted body markup leaked here"
        for p, v in visits.items()
        if v.trusted and p != "trusted/"
    ]
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems)


def test_markdown_body_payloads_do_nothing_with_hugo_defaults(tmp_path):
    site = make_body_site(tmp_path)
    matome_build(site, tmp_path / "public")
    visits = browse(tmp_path / "public", html_pages(tmp_path / "public"), click=True)
    assert len(visits) >= len(PAYLOADS) // 10
    ran = report(visits, "executed") + report(visits, "markup")
    assert not ran, "\n".join(ran)


def test_config_urls_never_become_script_links(tmp_path):
    """Menu URLs and author links from the configuration are printed in ``href``.

    Hugo's Go templates print an unsafe URL there as ``#ZgotmplZ``; a Jinja
    autoescape keeps the value inside the attribute but does not make a
    ``javascript:`` URL harmless, so this is the template's job.
    """
    site = make_config_url_site(tmp_path)
    matome_build(site, tmp_path / "public")
    visits = browse(tmp_path / "public", ["", "404.html", "posts/a/"], click=True)
    problems = report(visits, "markup") + report(visits, "executed")
    assert not problems, "config URLs that run script:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("url", "href"),
    [
        ("/tags/", "/tags/"),
        ("  /padded/ ", "/padded/"),
        ("https://x.example/a?b=c:d", "https://x.example/a?b=c:d"),
        ("HTTPS://x.example/", "HTTPS://x.example/"),
        ("mailto:a@b.example", "mailto:a@b.example"),
        ("TEL:+81-3", "TEL:+81-3"),
        ("a/b:c", "a/b:c"),  # the colon is after the first "/": a path
        ("?q=a:b", "?q=a:b"),
        ("#x:y", "#x:y"),
        ("javascript:alert(1)", "#ZgotmplZ"),
        (" JavaScript:alert(1)", "#ZgotmplZ"),
        ("java\tscript:alert(1)", "#ZgotmplZ"),  # browsers drop tabs and newlines in URLs
        ("java\nscript:alert(1)", "#ZgotmplZ"),
        ("data:text/html,<script>alert(1)</script>", "#ZgotmplZ"),
        ("vbscript:x", "#ZgotmplZ"),
        ("", ""),
        (None, ""),
    ],
)
def test_config_url_filter(url, href):
    assert safe_url(url) == href


def test_the_detector_sees_raw_payloads_run(tmp_path):
    """The same payloads pasted raw into a page, one page each: the browser check catches them."""
    for i, payload in enumerate(PAYLOADS):
        write(
            tmp_path / f"c{i:03d}.html",
            "<!DOCTYPE html><html><head><title>c</title></head><body><p>canary</p>"
            + fill(payload, f"xss{i}_canary", i)
            + "</body></html>",
        )
    visits = browse(tmp_path, [f"c{i:03d}.html" for i in range(len(PAYLOADS))], click=True)
    ran = {p for p, v in visits.items() if v.executed}
    seen = {p for p, v in visits.items() if v.executed or v.markup}
    assert len(ran) >= 45, sorted(ran)
    missed = [PAYLOADS[i] for i in range(len(PAYLOADS)) if f"c{i:03d}.html" not in seen]
    # What a browser never runs raw: Markdown, text that only escapes an attribute,
    # template syntax, and tag names broken by a NUL or a nested tag.
    assert len(missed) <= 16, missed


# --- comment bodies as the reader gets them (no browser) -------------------------------------
# (comment body as written, what the comment's HTML must contain)
COMMENT_CASES = [
    ("<script_name> を設定", "&lt;script_name&gt; を設定"),
    ("Vec<T> と Option<T>", "Vec&lt;T&gt; と Option&lt;T&gt;"),
    ("<!doctype html><title>Hi!</title>", "&lt;!doctype html&gt;&lt;title&gt;Hi!&lt;/title&gt;"),
    ("<?php echo 1; ?> だよ", "&lt;?php echo 1; ?&gt; だよ"),
    ("前<br><!-- 後", "前<br>&lt;!"),
    ("<![CDATA[ x ]]> 後", "&lt;![CDATA[ x ]]&gt; 後"),
    # A real comment (the corpus): the old escaping kept this tag raw and lost the rest.
    (
        "コードには<script src='https://sshh.io/script.js'></script>が含まれていた。",
        "&lt;/script&gt;が含まれていた。",
    ),
    ("`<b>` タグ", "<code>&lt;b&gt;</code> タグ"),
    ("前\n\n    Vec<T> x;\n", "<code>Vec&lt;T&gt; x;"),
    ("~~~\n<T>\n~~~", "<code>&lt;T&gt;"),
    ("<b>太字</b>と<i>斜体</i>", "<b>太字</b>と<i>斜体</i>"),
    (
        '<a href="https://x.example/">l</a>',
        '<a href="https://x.example/" rel="nofollow ugc noopener">l</a>',
    ),
    ('<a href="/posts/">l</a>', '<a href="/posts/" rel="nofollow ugc noopener">l</a>'),
    ('<a href="javascript:alert(1)">l</a>', '<a rel="nofollow ugc noopener">l</a>'),
    ("[l](javascript:alert(1))", '<a rel="nofollow ugc noopener">l</a>'),
    ("<https://x.example/a>", '<a href="https://x.example/a" rel="nofollow ugc noopener">'),
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
]


def comment_bodies(root: Path, sanitize: bool | None) -> list[str]:
    """Build a site whose one article quotes COMMENT_CASES (and a span); its comments' HTML."""
    config = {
        "baseURL": SITE_URL,
        "title": "c",
        "markup": {"goldmark": {"renderer": {"unsafe": True}}},
    }
    if sanitize is not None:
        config["matome"] = {"sanitize": sanitize}
    write(root / "hugo.toml", tomli_w.dumps(config))
    calls = [call("matomeQuote", body=body, userName="u") for body, _ in COMMENT_CASES]
    calls.append(call("matomeQuote", body='<span class="raw">生</span>', userName="u"))
    write(
        root / "content/posts/c.md",
        '+++\ntitle = "c"\ndate = 2025-01-01\n+++\n' + "\n\n".join(calls) + "\n",
    )
    matome_build(root, root / "public")
    page = (root / "public/posts/c/index.html").read_text(encoding="utf-8")
    return re.findall(r'<div class="comment-body">(.*?)</div>\n</article>', page, re.S)


def test_comment_bodies_keep_their_text_and_only_safe_html(tmp_path):
    bodies = comment_bodies(tmp_path, sanitize=None)
    assert len(bodies) == len(COMMENT_CASES) + 1
    wrong = [
        f"{written!r}\n  wanted {wanted!r}\n  got    {got!r}"
        for (written, wanted), got in zip(COMMENT_CASES, bodies, strict=False)
        if wanted not in got
    ]
    assert not wrong, "\n".join(wrong)
    assert "&amp;lt;" not in "".join(bodies)  # never escaped twice
    assert bodies[-1].startswith("&lt;span class=")  # not on the allowlist: shown as text


def test_sanitize_false_trusts_comment_html(tmp_path):
    """``[matome] sanitize = false``: comment bodies are Markdown with the site's raw HTML."""
    bodies = comment_bodies(tmp_path, sanitize=False)
    assert bodies[-1] == '<span class="raw">生</span>'


# --- feeds, sitemap, JSON: well-formed, payloads as text --------------------------------
class LiveMarkup(html.parser.HTMLParser):
    """Script-bearing tags and attributes in an HTML fragment (an RSS description)."""

    DANGEROUS = {"script", "iframe", "object", "embed", "base", "meta", "link", "style", "form"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.DANGEROUS:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            value = re.sub(r"[\x00-\x20]+", "", value or "").lower()
            if name.startswith("on") or value.startswith(("javascript:", "vbscript:", "data:")):
                self.found.append(f"<{tag} {name}={value[:60]}>")


def xml_problem(path: Path, error: ET.ParseError) -> str:
    line, col = error.position
    text = path.read_bytes().split(b"\n")[line - 1].decode("utf-8", "replace")
    return f"{path.name}:{line}:{col}: {error}: {text[max(0, col - 20) : col + 20]!r}"


def test_feeds_are_well_formed_xml(main_site):
    out, _ = main_site
    problems = []
    for feed in sorted(out.rglob("*.xml")):
        try:
            ET.fromstring(feed.read_bytes())
        except ET.ParseError as e:
            problems.append(f"{feed.relative_to(out)}: {xml_problem(feed, e)}")
    assert not problems, "\n".join(problems)


FEED_ROOT_URL = re.compile(r"(src=|href=|url=|action=)([\"']?)/(?!/)")


def feed_title(title: str) -> str:
    """A title as a feed carries it: XML cannot hold a NUL, and Hugo makes every
    root-relative URL after src=, href=... of a feed absolute, in a title's text too."""
    return FEED_ROOT_URL.sub(rf"\1\2{SITE_URL}", title.replace("\x00", "\ufffd"))


def test_rss_carries_titles_as_text_and_comments_as_safe_html(main_site):
    out, expected = main_site
    channel = ET.fromstring((out / "index.xml").read_bytes()).find("channel")
    assert channel.findtext("title") == expected.site_title
    items = {i.findtext("title"): i for i in channel.iter("item")}
    assert sorted(items) == sorted(feed_title(t) for t in expected.titles)
    live = []
    # Only where the summary is made of comments: a front matter summary is the author's
    # Markdown, as the body is (see the module docstring).
    for title in expected.plain_feed:
        parser = LiveMarkup()
        parser.feed(items[feed_title(title)].findtext("description") or "")
        if parser.found:
            live.append(f"{title[:40]!r}: {parser.found}")
    assert not live, "live markup in RSS descriptions:\n" + "\n".join(live)
    term_feeds = list((out / "tags").glob("*/**/index.xml"))
    assert len(term_feeds) >= len(PAYLOADS) - 2
    for feed in term_feeds:
        channel = ET.fromstring(feed.read_bytes()).find("channel")
        assert channel.findtext("title").endswith(" on " + expected.site_title)


def test_sitemap_lists_every_page_with_plain_urls(main_site):
    out, _ = main_site
    root = ET.fromstring((out / "sitemap.xml").read_bytes())
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = [loc.text for loc in root.findall("s:url/s:loc", ns)]
    for loc in locs:
        assert loc.startswith(SITE_URL) and not re.search(r"[<>\"'\s\x00]", loc), loc
    paths = {re.sub("/+", "/", unquote(urlsplit(loc).path)).lstrip("/") for loc in locs}
    pages = {p for p in html_pages(out) if not re.search(r"\.html$|(^|/)page/\d+/$", p)}
    assert pages <= paths, sorted(pages - paths)


def test_json_index_carries_titles_and_tags_exactly(main_site):
    out, expected = main_site
    entries = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert sorted(e["title"] for e in entries) == sorted(expected.titles)
    tags = {t.lower() for e in entries for t in e["tags"]}
    assert tags == {t.lower() for t in expected.tags}  # term names are title-cased as in Hugo
